// default_cache_dir(): OPTIML_CACHE_DIR, then XDG_CACHE_HOME/optiml, then HOME/.cache/optiml.
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "cache/store.h"

namespace optiml::cache {
namespace {

// Sets the three variables for one test and restores them afterwards.
class CacheDirEnvironment : public ::testing::Test {
  protected:
    void SetUp() override {
        for (const char* name : kNames) {
            const char* value = std::getenv(name);
            saved_[name] = value ? std::optional<std::string>(value) : std::nullopt;
            ::unsetenv(name);
        }
    }
    void TearDown() override {
        for (const auto& [name, value] : saved_) {
            if (value) {
                ::setenv(name.c_str(), value->c_str(), 1);
            } else {
                ::unsetenv(name.c_str());
            }
        }
    }
    static void set(const char* name, const char* value) { ::setenv(name, value, 1); }

    static constexpr const char* kNames[] = {"OPTIML_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
    std::map<std::string, std::optional<std::string>> saved_;
};

TEST_F(CacheDirEnvironment, ExplicitDirectoryWins) {
    set("OPTIML_CACHE_DIR", "/srv/optiml");
    set("XDG_CACHE_HOME", "/xdg");
    set("HOME", "/home/dev");
    EXPECT_EQ(default_cache_dir(), "/srv/optiml");
}

TEST_F(CacheDirEnvironment, XdgCacheHomeIsNext) {
    set("XDG_CACHE_HOME", "/xdg");
    set("HOME", "/home/dev");
    EXPECT_EQ(default_cache_dir(), "/xdg/optiml");
}

TEST_F(CacheDirEnvironment, HomeIsTheFallback) {
    set("HOME", "/home/dev");
    EXPECT_EQ(default_cache_dir(), "/home/dev/.cache/optiml");
}

TEST_F(CacheDirEnvironment, EmptyAndRelativeXdgValuesAreIgnored) {
    set("OPTIML_CACHE_DIR", "");
    set("XDG_CACHE_HOME", "relative/cache");
    set("HOME", "/home/dev");
    EXPECT_EQ(default_cache_dir(), "/home/dev/.cache/optiml");
}

TEST_F(CacheDirEnvironment, RelativeExplicitDirectoryIsAnError) {
    set("OPTIML_CACHE_DIR", "build/cache");
    set("HOME", "/home/dev");
    try {
        default_cache_dir();
        FAIL() << "accepted a relative OPTIML_CACHE_DIR";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("OPTIML_CACHE_DIR='build/cache'"),
                  std::string::npos);
        EXPECT_NE(std::string(error.what()).find("absolute"), std::string::npos);
    }
}

TEST_F(CacheDirEnvironment, NothingSetIsAnErrorNamingTheFix) {
    try {
        default_cache_dir();
        FAIL() << "chose a cache directory with no environment";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("set OPTIML_CACHE_DIR"), std::string::npos);
    }
}

}  // namespace
}  // namespace optiml::cache
