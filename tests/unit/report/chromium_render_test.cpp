// The HTML report as a browser shows it: headless Chromium (Debian's `chromium`, which
// scripts/install-deps.sh installs) loads each page from a file, with no network, and its DOM
// must hold the charts' groups and texts; a screenshot of each page is kept under the build
// folder's report-artifacts/ (CI keeps it as an artifact). Skipped, saying so, where Chromium is
// absent; $OPTIML_CHROMIUM names another browser binary.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "cache/store.h"
#include "driver/report/html_report.h"

namespace optiml::report {
namespace {
namespace fs = std::filesystem;

std::string find_chromium() {
    if (const char* named = std::getenv("OPTIML_CHROMIUM"); named && *named) return named;
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':'))
        for (const char* name : {"chromium", "chromium-browser"})
            if (::access((fs::path(dir) / name).c_str(), X_OK) == 0) return fs::path(dir) / name;
    return "";
}

std::string run(const std::string& command) {
    std::string out;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[65536];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
        ::pclose(pipe);
    }
    return out;
}

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// The markup of the <svg> with this id, as the browser serialized it.
std::string svg_element(const std::string& dom, const std::string& id) {
    const auto start = dom.find("id=\"" + id + "\"");
    if (start == std::string::npos) return "";
    return dom.substr(start, dom.find("</svg>", start) - start);
}

class ChromiumRender : public ::testing::Test {
  protected:
    void SetUp() override {
        chromium_ = find_chromium();
        if (chromium_.empty())
            GTEST_SKIP() << "chromium is not installed (apt-get install chromium, as "
                            "scripts/install-deps.sh does); the HTML report is not rendered";
        fs::create_directories(artifacts_);
        profile_ = fs::temp_directory_path() / ("optiml-chromium-" + std::to_string(::getpid()));
    }
    void TearDown() override { fs::remove_all(profile_); }

    fs::path write_page(const std::string& name, const ReportInput& input) {
        const fs::path page = artifacts_ / (name + ".html");
        std::ofstream(page) << render_html_report(input);
        return page;
    }
    std::string browser(const std::string& arguments) const {
        return "timeout 120 " + chromium_ +
               " --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=" +
               profile_.string() + " " + arguments + " 2>/dev/null";
    }
    std::string dump_dom(const fs::path& page) const {
        return run(browser("--dump-dom file://" + page.string()));
    }
    // Writes <page>.png; true when it is a PNG image of some size.
    bool screenshot(const fs::path& page) const {
        fs::path png = page;
        png.replace_extension(".png");
        fs::remove(png);
        run(browser("--hide-scrollbars --window-size=1100,3000 --screenshot=" + png.string() +
                    " file://" + page.string()));
        std::ifstream in(png, std::ios::binary);
        char signature[8] = {};
        in.read(signature, sizeof(signature));
        return in && std::string(signature + 1, 3) == "PNG" && fs::file_size(png) > 20000;
    }

    std::string chromium_;
    fs::path artifacts_ = OPTIML_REPORT_ARTIFACTS;
    fs::path profile_;
};

cache::Entry rendered_matmul_seed() {
    const cache::Store seed(fs::path(OPTIML_SOURCE_DIR) / "examples/matmul/optiml-seed", true);
    return *seed.inspect(seed.keys().at(0));
}

const auto kNoSources = [](const std::string&) -> std::optional<std::string> {
    return std::nullopt;
};

TEST_F(ChromiumRender, TheMatmulSeedPageRendersItsConvergenceAndPath) {
    const cache::Entry entry = rendered_matmul_seed();
    const fs::path page =
        write_page("matmul-seed", {entry.key, cache::read_entry_manifest(entry), {}, kNoSources});
    const std::string dom = dump_dom(page);
    ASSERT_NE(dom.find("<body"), std::string::npos) << "chromium printed no DOM: " << dom;
    const std::string curve = svg_element(dom, "convergence-evaluations");
    ASSERT_FALSE(curve.empty()) << dom.substr(0, 2000);
    EXPECT_NE(curve.find("data-series=\"parameters (exhaustive)\""), std::string::npos);
    EXPECT_GE(occurrences(curve, "<circle"), 2);  // at least the original and one improvement
    EXPECT_FALSE(svg_element(dom, "convergence-time").empty());
    EXPECT_NE(dom.find("id=\"parameters\""), std::string::npos);
    EXPECT_NE(dom.find("Not drawn: the entry has no evidence.json"), std::string::npos);
    EXPECT_TRUE(screenshot(page));
}

TEST_F(ChromiumRender, WithEvidenceTheRooflinePlacesEveryVariantUnderTheCeilings) {
    const cache::Entry entry = rendered_matmul_seed();
    std::ifstream in(fs::path(OPTIML_SOURCE_DIR) / "tests/data/h200/matmul_tuning_evidence.json");
    const nlohmann::json evidence = nlohmann::json::parse(in);
    const fs::path page =
        write_page("matmul-seed-with-h200-evidence",
                   {entry.key, cache::read_entry_manifest(entry), evidence, kNoSources});
    const std::string dom = dump_dom(page);
    const std::string roofline = svg_element(dom, "roofline");
    ASSERT_FALSE(roofline.empty()) << dom.substr(0, 2000);
    EXPECT_NE(roofline.find("data-series=\"measured ceilings\""), std::string::npos);
    EXPECT_NE(roofline.find("Roofline (fp32"), std::string::npos);
    // The original, the winner and one circle per profiled variant.
    EXPECT_EQ(occurrences(roofline, "<circle"),
              2 + static_cast<int>(evidence["selection_table"]["rows"].size()));
    EXPECT_NE(roofline.find("arithmetic intensity (FLOP per DRAM byte)"), std::string::npos);
    EXPECT_NE(dom.find("long_scoreboard"), std::string::npos);
    EXPECT_TRUE(screenshot(page));
}

}  // namespace
}  // namespace optiml::report
