#include "cache/key.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/store.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

KeyInputs reference_inputs() {
    KeyInputs inputs;
    inputs.optiml_version = "0.1.0";
    inputs.normalized_spec = R"({"kernel":"saxpy","parameters":{"block_size_x":[128,256]}})";
    inputs.sources = {
        {"saxpy.cu",
         "#include \"common/math.h\"\n#include \"util.h\"\n__global__ void saxpy() {}\n"},
        {"util.h", "#define ITEMS 4\n"},
        {"common/math.h", "inline float twice(float x) { return 2 * x; }\n"},
    };
    inputs.nvrtc_version = "13.0";
    inputs.nvrtc_options = {"-O3", "--use_fast_math", "-default-device"};
    inputs.arch = "sm_90";
    return inputs;
}

// Computed once by an independent Python script (hashlib) that follows docs/caching.md; if this
// changes, every existing cache entry is orphaned, so bump kSchemaVersion and update the doc.
constexpr const char* kReferenceKey =
    "dd891a8800bafadd8cdd7e3e00778a4c13d4d6ea2e369be6c889ac1177476150";

TEST(Sha256Hex, MatchesPublishedTestVectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(std::string("a\0b", 3)), sha256_hex(std::string("a\0b", 3)));
    EXPECT_NE(sha256_hex(std::string("a\0b", 3)), sha256_hex("a"));
}

TEST(KeyStability, MatchesTheDocumentedScheme) {
    EXPECT_EQ(compute_key(reference_inputs()), kReferenceKey);
}

TEST(KeyStability, SameInputsGiveTheSameKey) {
    EXPECT_EQ(compute_key(reference_inputs()), compute_key(reference_inputs()));
}

TEST(KeyStability, HeaderOrderDoesNotMatter) {
    KeyInputs reordered = reference_inputs();
    std::swap(reordered.sources[1], reordered.sources[2]);
    EXPECT_EQ(compute_key(reordered), kReferenceKey);
}

// Another process, in another working directory with another environment, gets the same key:
// nothing about where or how the driver runs leaks into it.
TEST(KeyStability, SameKeyInAnotherProcessAndWorkingDirectory) {
    testing::ScratchDir elsewhere;
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipe_fds[0]);
        int status = 1;
        if (::chdir(elsewhere.path().c_str()) == 0 &&
            ::setenv("OPTIML_CACHE_DIR", elsewhere.path().c_str(), 1) == 0) {
            std::string key = compute_key(reference_inputs());
            status =
                ::write(pipe_fds[1], key.data(), key.size()) == static_cast<ssize_t>(key.size())
                    ? 0
                    : 1;
        }
        ::_exit(status);
    }
    ::close(pipe_fds[1]);
    std::string from_child;
    char buffer[128];
    for (ssize_t count; (count = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
        from_child.append(buffer, static_cast<std::size_t>(count));
    }
    ::close(pipe_fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_NE(std::filesystem::current_path(), elsewhere.path());
    EXPECT_EQ(from_child, compute_key(reference_inputs()));
    EXPECT_EQ(from_child, kReferenceKey);
}

struct Change {
    std::string what;
    std::function<void(KeyInputs&)> apply;
};

std::vector<Change> single_field_changes() {
    return {
        {"spec", [](KeyInputs& in) { in.normalized_spec = R"({"kernel":"saxpy2"})"; }},
        {"kernel source", [](KeyInputs& in) { in.sources[0].contents += "// edit\n"; }},
        {"kernel path", [](KeyInputs& in) { in.sources[0].relative_path = "kernels/saxpy.cu"; }},
        {"header contents", [](KeyInputs& in) { in.sources[1].contents = "#define ITEMS 8\n"; }},
        {"header path", [](KeyInputs& in) { in.sources[1].relative_path = "util2.h"; }},
        {"header added",
         [](KeyInputs& in) {
             in.sources.push_back({"extra.h", ""});
         }},
        {"header removed", [](KeyInputs& in) { in.sources.pop_back(); }},
        {"nvrtc option", [](KeyInputs& in) { in.nvrtc_options[0] = "-O2"; }},
        {"nvrtc option order",
         [](KeyInputs& in) { std::swap(in.nvrtc_options[0], in.nvrtc_options[1]); }},
        {"nvrtc option added", [](KeyInputs& in) { in.nvrtc_options.push_back("-lineinfo"); }},
        {"empty nvrtc option added", [](KeyInputs& in) { in.nvrtc_options.push_back(""); }},
        {"nvrtc version", [](KeyInputs& in) { in.nvrtc_version = "13.1"; }},
        {"arch", [](KeyInputs& in) { in.arch = "sm_80"; }},
        {"optiml version", [](KeyInputs& in) { in.optiml_version = "0.2.0"; }},
        // The kernel source is the first file; the same files with another one first differ.
        {"kernel vs header", [](KeyInputs& in) { std::swap(in.sources[0], in.sources[1]); }},
        // Length prefixes: moving bytes from one field to the next must not collide.
        {"bytes moved between path and contents",
         [](KeyInputs& in) {
             in.sources[1].relative_path = "util.h#define";
             in.sources[1].contents = " ITEMS 4\n";
         }},
        {"bytes moved between options",
         [](KeyInputs& in) {
             in.nvrtc_options = {"-O3--use_fast_math", "-default-device"};
         }},
        {"comparison function added",
         [](KeyInputs& in) {
             in.compare_sources = {{"compare.cpp", "int optiml_compare();"}};
         }},
        // The same file as a kernel header and as the comparison function are different inputs.
        {"header that is also the comparison function",
         [](KeyInputs& in) { in.compare_sources = {in.sources[1]}; }},
        // The user's target's device flags (separable compilation, definitions, fast math).
        {"target flag added", [](KeyInputs& in) { in.build_options = {"-rdc=true"}; }},
        {"target flags",
         [](KeyInputs& in) {
             in.build_options = {"-DNDEBUG", "-rdc=true"};
         }},
        {"target flag order",
         [](KeyInputs& in) {
             in.build_options = {"-rdc=true", "-DNDEBUG"};
         }},
        // A target flag is not an NVRTC option of the spec's: the same text elsewhere differs.
        {"option as a target flag", [](KeyInputs& in) { in.build_options = {"-O3"}; }},
    };
}

TEST(KeySensitivity, EverySingleFieldChangesTheKey) {
    const std::string base = compute_key(reference_inputs());
    std::set<std::string> seen{base};
    for (const Change& change : single_field_changes()) {
        KeyInputs inputs = reference_inputs();
        change.apply(inputs);
        const std::string key = compute_key(inputs);
        EXPECT_NE(key, base) << "changing the " << change.what << " kept the key";
        EXPECT_TRUE(seen.insert(key).second)
            << "changing the " << change.what << " collided with another change";
    }
}

TEST(KeySensitivity, TheComparisonFunctionsBytesPathAndHeadersAreHashed) {
    KeyInputs with = reference_inputs();
    with.compare_sources = {{"checks/compare.cpp", "int optiml_compare();"},
                            {"checks/a.h", "// a"},
                            {"checks/b.h", "// b"}};
    const std::string key = compute_key(with);
    KeyInputs edited = with;
    edited.compare_sources[0].contents += "// edit\n";
    EXPECT_NE(compute_key(edited), key);
    KeyInputs moved = with;
    moved.compare_sources[0].relative_path = "compare.cpp";
    EXPECT_NE(compute_key(moved), key);
    KeyInputs header_edited = with;
    header_edited.compare_sources[2].contents = "// b2";
    EXPECT_NE(compute_key(header_edited), key);
    KeyInputs reordered = with;  // headers in another order: the same inputs
    std::swap(reordered.compare_sources[1], reordered.compare_sources[2]);
    EXPECT_EQ(compute_key(reordered), key);
    KeyInputs absolute = with;
    absolute.compare_sources[0].relative_path = "/src/compare.cpp";
    EXPECT_THROW(compute_key(absolute), CacheError);
}

TEST(KeyInputsCheck, RejectsAbsoluteSourcePaths) {
    KeyInputs inputs = reference_inputs();
    inputs.sources[1].relative_path = "/usr/include/util.h";
    try {
        compute_key(inputs);
        FAIL() << "an absolute path was accepted";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("/usr/include/util.h"), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("relative"), std::string::npos);
    }
}

TEST(KeyInputsCheck, RejectsMissingKernelSource) {
    KeyInputs inputs = reference_inputs();
    inputs.sources.clear();
    EXPECT_THROW(compute_key(inputs), CacheError);
}

}  // namespace
}  // namespace optiml::cache
