#include "persistence/pg/detail/embedded_roles.hpp"

#include <pqxx/pqxx>
#include <stdexcept>

namespace syncml::persistence::detail {
namespace {

// LOGIN and nothing more; set again at every start, so a role changed by hand is put back.
constexpr const char* k_role_attributes = " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";

// Run in the application database as the superuser, after `app text := '<role>';`. Indexes, the row types of
// tables, array types and the sequences of serial and identity columns follow their table or type (changing
// such a sequence alone is an error); members of extensions are left to their extension.
constexpr const char* k_hand_over_objects = R"sql(
    me oid := (SELECT oid FROM pg_roles WHERE rolname = current_user);
    r record;
BEGIN
    FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relowner = me AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c')
               AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
               AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                                 AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')) LOOP
        EXECUTE format(CASE WHEN r.relkind = 'c' THEN 'ALTER TYPE %s OWNER TO %I' ELSE 'ALTER TABLE %s OWNER TO %I' END,
                       r.name, app);
    END LOOP;
    FOR r IN SELECT p.oid::regprocedure AS name, p.prokind FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = 'public' AND p.proowner = me
               AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') LOOP
        EXECUTE format(CASE r.prokind WHEN 'p' THEN 'ALTER PROCEDURE %s OWNER TO %I'
                                      WHEN 'a' THEN 'ALTER AGGREGATE %s OWNER TO %I'
                                      ELSE 'ALTER FUNCTION %s OWNER TO %I' END, r.name, app);
    END LOOP;
    FOR r IN SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
             WHERE n.nspname = 'public' AND t.typowner = me AND t.typtype IN ('e', 'd', 'r', 'm')
               AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = t.oid AND d.deptype = 'e') LOOP
        EXECUTE format('ALTER TYPE %s OWNER TO %I', r.name, app);
    END LOOP;
    IF (SELECT nspowner FROM pg_namespace WHERE nspname = 'public') = me THEN
        EXECUTE format('ALTER SCHEMA public OWNER TO %I', app);
    END IF;
)sql";

void ensure_role(pqxx::nontransaction& tx, const std::string& password) {
    const std::string role = tx.quote_name(k_embedded_app_role);
    const bool exists = !tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", k_embedded_app_role).empty();
    tx.exec((exists ? "ALTER ROLE " : "CREATE ROLE ") + role + k_role_attributes + " PASSWORD " + tx.quote(password));
}

// An existing database of another owner comes from a data directory of an older version: it changes hands.
void ensure_database(pqxx::nontransaction& tx) {
    const std::string role = tx.quote_name(k_embedded_app_role);
    const std::string database = tx.quote_name(k_embedded_database);
    const auto owner =
        tx.exec_params("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", k_embedded_database);
    if (owner.empty()) {
        tx.exec("CREATE DATABASE " + database + " OWNER " + role);
    } else if (owner[0][0].as<std::string>() != k_embedded_app_role) {
        tx.exec("ALTER DATABASE " + database + " OWNER TO " + role);
    }
}

}  // namespace

void provision_app_role(const superuser_urls& urls, const std::string& app_password) {
    try {
        {
            pqxx::connection connection(urls.maintenance);
            pqxx::nontransaction tx(connection);
            ensure_role(tx, app_password);
            ensure_database(tx);
        }
        // At every start, not only after a hand-over, so that an interrupted hand-over completes; a few catalog
        // reads when there is nothing to do.
        pqxx::connection connection(urls.application);
        pqxx::work tx(connection);
        // DO takes no parameters: the role's name goes in as a quoted literal.
        tx.exec(std::string("DO $$\nDECLARE\n    app text := ") + tx.quote(k_embedded_app_role) + ";" +
                k_hand_over_objects + "END\n$$");
        tx.commit();
    } catch (const std::exception& error) {
        throw std::runtime_error(std::string("embedded PostgreSQL: cannot set up role '") + k_embedded_app_role +
                                 "' and database '" + k_embedded_database + "': " + error.what());
    }
}

}  // namespace syncml::persistence::detail
