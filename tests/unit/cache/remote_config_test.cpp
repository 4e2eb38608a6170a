// The remote cache's configuration from options and the environment (cache/remote_config.h).
#include <cstdlib>

#include <gtest/gtest.h>

#include "cache/remote_config.h"
#include "cache/store.h"

namespace optiml::cache {
namespace {

// Sets environment variables for one test and restores them afterwards.
class RemoteConfigTest : public ::testing::Test {
  protected:
    void SetUp() override {
        for (const char* name : kNames) ::unsetenv(name);
    }
    void TearDown() override {
        for (const char* name : kNames) ::unsetenv(name);
    }
    static std::string error_of(const std::string& url, const std::string& mode) {
        try {
            remote_config(url, mode);
        } catch (const CacheError& e) {
            return e.what();
        }
        return "";
    }
    static constexpr const char* kNames[] = {"OPTIML_REMOTE_CACHE",
                                             "OPTIML_REMOTE_CACHE_MODE",
                                             "OPTIML_REMOTE_CACHE_TOKEN",
                                             "OPTIML_REMOTE_CACHE_USER",
                                             "OPTIML_REMOTE_CACHE_PASSWORD",
                                             "OPTIML_REMOTE_CACHE_CA",
                                             "OPTIML_REMOTE_CACHE_TIMEOUT_MS",
                                             "OPTIML_REMOTE_CACHE_CONNECT_TIMEOUT_MS"};
};

TEST_F(RemoteConfigTest, NoUrlAnywhereMeansNoRemote) {
    EXPECT_FALSE(remote_config("", ""));
}

TEST_F(RemoteConfigTest, TheOptionWinsOverTheEnvironmentAndTheModeDefaultsToRead) {
    ::setenv("OPTIML_REMOTE_CACHE", "http://env:1/x", 1);
    const auto config = remote_config("https://option:2/cache/", "");
    ASSERT_TRUE(config);
    EXPECT_EQ(config->url, "https://option:2/cache");
    EXPECT_EQ(config->mode, RemoteMode::kReadOnly);
    EXPECT_EQ(remote_config("", "")->url, "http://env:1/x");
}

TEST_F(RemoteConfigTest, CredentialsAndTimeoutsComeFromTheEnvironment) {
    ::setenv("OPTIML_REMOTE_CACHE_MODE", "read-write", 1);
    ::setenv("OPTIML_REMOTE_CACHE_USER", "ci", 1);
    ::setenv("OPTIML_REMOTE_CACHE_PASSWORD", "s3cret", 1);
    ::setenv("OPTIML_REMOTE_CACHE_CA", "/etc/team-ca.pem", 1);
    ::setenv("OPTIML_REMOTE_CACHE_TIMEOUT_MS", "750", 1);
    const auto config = remote_config("http://h:1", "");
    EXPECT_EQ(config->mode, RemoteMode::kReadWrite);
    EXPECT_EQ(config->user, "ci");
    EXPECT_EQ(config->password, "s3cret");
    EXPECT_EQ(config->ca_file, "/etc/team-ca.pem");
    EXPECT_EQ(config->request_timeout_ms, 750);
    EXPECT_EQ(config->connect_timeout_ms, 2000);
}

TEST_F(RemoteConfigTest, AUrlWithAPasswordIsRefusedWithoutRepeatingIt) {
    const std::string why = error_of("http://ci:s3cret@h:1/x", "");
    EXPECT_NE(why.find("OPTIML_REMOTE_CACHE_PASSWORD"), std::string::npos) << why;
    EXPECT_EQ(why.find("s3cret"), std::string::npos) << why;
    EXPECT_EQ(display_url("http://ci:s3cret@h:1/x"), "http://h:1/x");
}

TEST_F(RemoteConfigTest, BadValuesNameTheirVariableAndTheFix) {
    EXPECT_NE(error_of("ftp://h/x", "").find("http:// or https://"), std::string::npos);
    EXPECT_NE(error_of("http://h", "write").find("expected read"), std::string::npos);
    ::setenv("OPTIML_REMOTE_CACHE_TIMEOUT_MS", "soon", 1);
    EXPECT_NE(error_of("http://h", "").find("OPTIML_REMOTE_CACHE_TIMEOUT_MS='soon'"),
              std::string::npos);
    ::unsetenv("OPTIML_REMOTE_CACHE_TIMEOUT_MS");
    ::setenv("OPTIML_REMOTE_CACHE_PASSWORD", "p", 1);
    EXPECT_NE(error_of("http://h", "").find("OPTIML_REMOTE_CACHE_USER is not"), std::string::npos);
}

}  // namespace
}  // namespace optiml::cache
