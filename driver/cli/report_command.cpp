// `optiml report <key | spec> -o <dir>`: writes one HTML page per matching cache entry
// (driver/report/html_report.h) and prints where.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/entry_selection.h"
#include "driver/report/html_report.h"

namespace optiml::cli {

void add_report_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "report",
        "Write a self-contained HTML page per tuning result: roofline, convergence, winning "
        "path with its diff, dominant stalls");
    auto target = std::make_shared<std::string>();
    auto dir = std::make_shared<std::string>();
    auto out_dir = std::make_shared<std::string>();
    command->add_option("target", *target, "A cache key (or unique prefix), or a spec file")
        ->required();
    command->add_option("-o,--out", *out_dir, "Folder for the pages")->required();
    command->add_option("--cache-dir", *dir,
                        "Cache folder, or a seed folder (default: as `optiml cache`)");
    command->callback([=] {
        try {
            const cache::Store store(dir->empty() ? cache::default_cache_dir()
                                                  : std::filesystem::path(*dir));
            std::filesystem::create_directories(*out_dir);
            for (const auto& key : select_entries(store, *target)) {
                const auto entry = store.inspect(key);
                report::ReportInput input;
                input.key = key;
                input.manifest = cache::read_entry_manifest(*entry);
                if (const auto file = entry->files.find(input.manifest.file("evidence"));
                    file != entry->files.end())
                    input.evidence = nlohmann::json::parse(file->second);
                input.sources = path_sources(*entry);
                const auto page =
                    std::filesystem::path(*out_dir) / report::report_file_name(input.manifest, key);
                std::ofstream out(page, std::ios::binary | std::ios::trunc);
                out << report::render_html_report(input);
                if (!out) throw std::runtime_error("cannot write " + page.string());
                std::cout << page.string() << "\n";
            }
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
