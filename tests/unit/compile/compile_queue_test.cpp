// The streaming compile queue and the compiled-image cache, with real NVRTC (no GPU needed).
#include "driver/compile/compile_queue.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "driver/compile/image_cache.h"
#include "tests/unit/cache/scratch.h"

namespace optiml::compile {
namespace {
namespace fs = std::filesystem;

// A kernel whose PTX carries its define, so that each result can be told apart.
CompileRequest request(std::int64_t value, Output output = Output::Ptx) {
    CompileRequest r;
    r.source_text = "__global__ void fill(int* x) { x[threadIdx.x] = VALUE; }\n";
    r.source_name = "fill.cu";
    r.name_expression = "fill";
    r.defines = {{"VALUE", value}};
    r.output = output;
    return r;
}

CompileRequest broken() {
    CompileRequest r = request(1);
    r.source_text = "__global__ void fill(int* x) { x[threadIdx.x] = ; }\n";
    return r;
}

using TempDir = cache::testing::ScratchDir;

TEST(CompileQueue, EveryTicketComesBackOnceWithItsOwnResult) {
    CompileQueue queue(3);
    std::map<std::size_t, std::int64_t> value_of;
    for (std::int64_t v = 10; v < 17; ++v) value_of[queue.submit(request(v))] = v;
    const std::size_t bad = queue.submit(broken());
    std::set<std::size_t> seen;
    while (auto done = queue.next()) {
        EXPECT_TRUE(seen.insert(done->ticket).second) << "ticket " << done->ticket << " twice";
        if (done->ticket == bad) {
            EXPECT_FALSE(done->result.ok);
            EXPECT_NE(done->result.log.find("error"), std::string::npos) << done->result.log;
            continue;
        }
        ASSERT_TRUE(done->result.ok) << done->result.log;
        EXPECT_NE(done->result.binary.find(std::to_string(value_of.at(done->ticket))),
                  std::string::npos)
            << "ticket " << done->ticket << " got another request's PTX";
        EXPECT_FALSE(done->cached);
        EXPECT_GT(done->compile_ms, 0.0);
    }
    EXPECT_EQ(seen.size(), 8u);
    EXPECT_FALSE(queue.next()) << "an empty queue must not block";
}

TEST(CompileQueue, CancelledJobsNeverComeBackAndTheRestDo) {
    CompileQueue queue(1);
    std::set<std::size_t> submitted;
    for (std::int64_t v = 0; v < 6; ++v) submitted.insert(queue.submit(request(v)));
    const std::vector<std::size_t> cancelled = queue.cancel_pending();
    std::set<std::size_t> returned;
    while (auto done = queue.next()) returned.insert(done->ticket);
    // One thread: at most one job had started when the rest were dropped.
    EXPECT_GE(cancelled.size(), 5u);
    for (const std::size_t ticket : cancelled) EXPECT_FALSE(returned.contains(ticket));
    EXPECT_EQ(cancelled.size() + returned.size(), submitted.size());
}

TEST(ImageCache, ASecondCompileOfTheSameInputsIsServedFromTheCache) {
    TempDir dir;
    ImageCache images(dir.path());
    CompileResult first;
    {
        CompileQueue queue(2, &images, "headers-v1");
        queue.submit(request(7, Output::Cubin));
        auto done = queue.next();
        ASSERT_TRUE(done && done->result.ok) << (done ? done->result.log : "nothing");
        EXPECT_FALSE(done->cached);
        first = done->result;
    }
    CompileQueue again(2, &images, "headers-v1");
    again.submit(request(7, Output::Cubin));
    again.submit(request(8, Output::Cubin));
    int cached = 0;
    while (auto done = again.next()) {
        ASSERT_TRUE(done->result.ok);
        if (done->cached) {
            ++cached;
            EXPECT_EQ(done->result.binary, first.binary);
            EXPECT_EQ(done->result.lowered_name, first.lowered_name);
        }
    }
    EXPECT_EQ(cached, 1) << "only the request compiled before is a hit";
}

TEST(ImageCache, EveryCompileInputChangesTheKey) {
    const CompileRequest base = request(7, Output::Cubin);
    const std::string key = image_key(base, "h");
    EXPECT_EQ(key, image_key(base, "h"));
    EXPECT_NE(key, image_key(base, "other headers"));
    CompileRequest changed = base;
    changed.source_text += "// edited\n";
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.defines["VALUE"] = 8;
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.options = {"--use_fast_math"};
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.arch = 80;
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.output = Output::Ptx;
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.line_info = false;
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.name_expression = "fill2";
    EXPECT_NE(key, image_key(changed, "h"));
    changed = base;
    changed.whole_file_text = base.source_text + "int main() { return 0; }\n";  // the fallback
    EXPECT_NE(key, image_key(changed, "h"));
    CompileRequest other_host_code = changed;
    other_host_code.whole_file_text += "// edited\n";
    EXPECT_NE(image_key(changed, "h"), image_key(other_host_code, "h"));
    changed = base;
    changed.include_dirs = {"/somewhere/else"};  // where headers are found is not what they hold
    EXPECT_EQ(key, image_key(changed, "h"));
}

TEST(ImageCache, ADamagedImageIsCompiledAgainNeverUsed) {
    TempDir dir;
    ImageCache images(dir.path());
    const CompileRequest r = request(7, Output::Cubin);
    const std::string key = image_key(r, "h");
    images.store(key, compile(r));
    ASSERT_TRUE(images.find(key));
    for (const auto& file : fs::recursive_directory_iterator(dir.path()))
        if (file.is_regular_file() && file.path().filename() == "image")
            std::ofstream(file.path(), std::ios::binary | std::ios::trunc) << "garbage";
    EXPECT_FALSE(images.find(key)) << "an image whose digest differs must not be used";
    CompileQueue queue(1, &images, "h");
    queue.submit(r);
    auto done = queue.next();
    ASSERT_TRUE(done && done->result.ok);
    EXPECT_FALSE(done->cached);
}

TEST(ImageCache, AFailedCompileIsNotCached) {
    TempDir dir;
    ImageCache images(dir.path());
    const std::string key = image_key(broken(), "h");
    images.store(key, compile(broken()));
    EXPECT_FALSE(images.find(key));
}

}  // namespace
}  // namespace optiml::compile
