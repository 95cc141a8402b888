#pragma once
// A PostgreSQL cluster owned by this process, kept in the data directory (used when no database URL
// is configured). As root, PostgreSQL runs as the `postgres` system user, since it refuses to run as
// root; otherwise it runs as the current user. It listens on 127.0.0.1 and on a unix socket inside
// the data directory, with password (SCRAM) authentication for TCP.
//
// Layout of data_dir (mode 0700, 0711 as root): pgdata/ (the cluster, owned by the PostgreSQL user; also its
// unix socket and server.log), postgres.password (superuser `syncml`'s password, used only to set up the
// roles), app.password (the password of `syncml_app`, the role the server connects as: no superuser, owner of
// the database `syncml`), both mode 0600 and owned by us, embedded.lock (flock held by the owning process).

#include <optional>
#include <string>

namespace syncml::persistence {

struct embedded_settings {
    std::string data_dir;  // pgdata/, the socket and the server log live below it
    unsigned port = 0;     // 0 = pick a free loopback port at every start
    std::string pg_bin_dir = "/usr/lib/postgresql/15/bin";
    // As root: when a parent of data_dir is not searchable by the postgres user, add the search
    // (o+x, not read) permission to it instead of failing. Logged as a warning.
    bool grant_parent_search = true;
};

class embedded_postgres {
  public:
    explicit embedded_postgres(embedded_settings settings);
    ~embedded_postgres();  // stops the cluster if this object started it
    embedded_postgres(const embedded_postgres&) = delete;
    embedded_postgres& operator=(const embedded_postgres&) = delete;

    // First start: initdb into data_dir/pgdata. Every start: pg_ctl start (a cluster left running by a
    // killed process is stopped cleanly first; a stale postmaster.pid is handled by pg_ctl), then the role
    // `syncml_app` and its database `syncml` are created, or taken over from the superuser in a data directory
    // of an older version. Fails when another live process owns data_dir.
    // Throws std::runtime_error with a clear message.
    void start();
    void stop();  // no-op when not running; never throws
    bool running() const { return running_; }

    // libpq URL of the `syncml` database as `syncml_app` (valid after start()).
    std::string url() const;
    unsigned port() const { return port_; }
    // Where PostgreSQL writes its log; worth showing when start() fails.
    std::string log_file() const;

    // URL of the cluster that another process started in data_dir (from its postmaster.pid and
    // password file; as the superuser only when an older version left no app.password), for commands that
    // reuse a running server's database; nullopt without a postmaster.pid. A stale pid file (crashed
    // server) yields a URL that does not connect.
    static std::optional<std::string> running_url(const std::string& data_dir);

  private:
    void release_lock();

    embedded_settings settings_;
    unsigned port_ = 0;
    bool running_ = false;
    std::string password_;
    int lock_fd_ = -1;  // flock on data_dir/embedded.lock while this object owns the cluster
};

}  // namespace syncml::persistence
