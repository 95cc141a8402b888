// Issue 17: SYNCML_TRACE_DEVICE writes one device's decoded messages to files, for a limited time.
#include "session/service/device_trace.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/crypto/base64.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

namespace fs = std::filesystem;

class temp_dir {
  public:
    temp_dir() {
        std::string pattern = (fs::temp_directory_path() / "trace-test.XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~temp_dir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

std::vector<fs::path> files_under(const fs::path& dir) {
    std::vector<fs::path> files;
    if (!fs::exists(dir)) return files;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string read_all(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

unsigned mode_of(const fs::path& path) {
    struct stat st {};
    ::stat(path.c_str(), &st);
    return st.st_mode & 0777;
}

trace_settings settings_for(const fs::path& dir, std::set<std::string> devices) {
    trace_settings settings;
    settings.devices = std::move(devices);
    settings.dir = dir;
    settings.until = std::chrono::system_clock::now() + std::chrono::hours(1);
    return settings;
}

TEST(trace_path_segment, keeps_a_device_id_inside_its_directory) {
    EXPECT_EQ(trace_path_segment("IMEI:3546-01"), "IMEI%3A3546-01");
    EXPECT_EQ(trace_path_segment("../../etc/passwd"), "..%2F..%2Fetc%2Fpasswd");
    EXPECT_EQ(trace_path_segment(".."), "%..");
    EXPECT_EQ(trace_path_segment(""), "%");
    EXPECT_EQ(trace_path_segment(std::string(500, 'a')).size(), 120u);
}

class device_trace_test : public testing::sync_service_test {};

TEST_F(device_trace_test, writes_the_traced_devices_messages_as_xml_with_the_password_masked) {
    temp_dir dir;
    service_settings settings;
    settings.trace = settings_for(dir.path(), {"IMEI:TRACED"});
    sync_service service(settings);
    const std::string url = "/sync/" + tenant_;

    const auto started = post(service, alert_message("IMEI:TRACED"), url);
    ASSERT_EQ(started.http_status, 200);
    ASSERT_EQ(post(service, sync_message("IMEI:TRACED", 2), resp_path(decoded(started))).http_status, 200);
    ASSERT_EQ(post(service, alert_message("IMEI:OTHER"), url).http_status, 200);

    const auto files = files_under(dir.path());
    ASSERT_EQ(files.size(), 4u);  // two messages of the traced device, request and reply each
    const fs::path device_dir = dir.path() / tenant_ / "IMEI%3ATRACED";
    for (const auto& file : files) {
        EXPECT_EQ(file.parent_path(), device_dir);
        EXPECT_EQ(mode_of(file), 0600u) << file;
    }
    EXPECT_EQ(mode_of(device_dir), 0700u);
    EXPECT_EQ(mode_of(dir.path() / tenant_), 0700u);

    const std::string first_in = read_all(files[0]);
    EXPECT_TRUE(files[0].string().ends_with("-s1-m1-in.xml")) << files[0];
    EXPECT_NE(first_in.find("<LocURI>IMEI:TRACED</LocURI>"), std::string::npos) << first_in;
    EXPECT_NE(first_in.find("********"), std::string::npos) << first_in;
    const std::string secret = alert_message("IMEI:TRACED").header.cred->data;
    EXPECT_EQ(first_in.find(secret), std::string::npos) << first_in;
    const std::string first_out = read_all(files[1]);
    EXPECT_TRUE(files[1].string().ends_with("-s1-m1-out.xml")) << files[1];
    EXPECT_NE(first_out.find("<Status>"), std::string::npos) << first_out;
    EXPECT_NE(read_all(files[2]).find("<Add>"), std::string::npos);
}

// Issue 35: messages that never authenticated, naming a traced device, are not the device's: nothing is written.
TEST_F(device_trace_test, records_only_messages_of_an_authenticated_session) {
    temp_dir dir;
    service_settings settings;
    settings.trace = settings_for(dir.path(), {"IMEI:TRACED"});
    sync_service service(settings);
    const std::string url = "/sync/" + tenant_;
    auto anonymous = alert_message("IMEI:TRACED");
    anonymous.header.cred.reset();
    auto wrong = alert_message("IMEI:TRACED");
    wrong.header.cred->data = common::base64_encode("u1:guess");
    for (const auto& m : {anonymous, wrong, sync_message("IMEI:TRACED", 1)}) {
        ASSERT_EQ(post(service, m, url, "203.0.113.66").http_status, 200);
    }
    EXPECT_TRUE(files_under(dir.path()).empty());
    ASSERT_EQ(post(service, alert_message("IMEI:TRACED"), url).http_status, 200);
    EXPECT_EQ(files_under(dir.path()).size(), 2u);
}

TEST(device_trace, stops_at_its_end_time_and_at_its_size_limit) {
    temp_dir dir;
    auto ended = settings_for(dir.path(), {"IMEI:1"});
    ended.until = std::chrono::system_clock::now() - std::chrono::seconds(1);
    device_trace late(ended);
    EXPECT_FALSE(late.wants("IMEI:1"));

    auto small = settings_for(dir.path(), {"IMEI:1"});
    small.max_bytes = 10;
    device_trace full(small);
    message m;
    m.header.source.loc_uri = "IMEI:1";
    m.header.session_id = "5";
    m.header.msg_id = "1";
    ASSERT_TRUE(full.wants("IMEI:1"));
    EXPECT_FALSE(full.wants("IMEI:2"));
    sync_response reply;
    reply.http_status = 503;
    full.record("acme", m, reply);
    EXPECT_FALSE(full.wants("IMEI:1"));
    const auto files = files_under(dir.path());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(read_all(files[1]), "HTTP 503\n");
}

TEST(device_trace, a_resent_message_gets_a_file_of_its_own) {
    temp_dir dir;
    device_trace trace(settings_for(dir.path(), {"IMEI:1"}));
    message m;
    m.header.source.loc_uri = "IMEI:1";
    m.header.session_id = "5";
    m.header.msg_id = "1";
    sync_response reply;
    for (int i = 0; i < 3; ++i) trace.record("acme", m, reply);
    EXPECT_EQ(files_under(dir.path()).size(), 6u);
}

}  // namespace
}  // namespace syncml::session
