// `optiml explain <key | spec>`: prints how a tuning result was reached (driver/report/explain.h).
// A spec explains the entries its current sources key to, one per architecture tuned.
#include <filesystem>
#include <iostream>

#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/entry_selection.h"
#include "driver/report/explain.h"

namespace optiml::cli {

void add_explain_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "explain", "Print how a tuning result was reached: its winning path, step by step");
    auto target = std::make_shared<std::string>();
    auto dir = std::make_shared<std::string>();
    command->add_option("target", *target, "A cache key (or unique prefix), or a spec file")
        ->required();
    command->add_option("--cache-dir", *dir, "Cache folder (default: as `optiml cache`)");
    command->callback([=] {
        try {
            const cache::Store store(dir->empty() ? cache::default_cache_dir()
                                                  : std::filesystem::path(*dir));
            for (const auto& key : select_entries(store, *target)) {
                const auto entry = store.inspect(key);
                const auto sources = path_sources(*entry);
                std::cout << "entry " << key.substr(0, 16) << ": "
                          << report::explain(cache::read_entry_manifest(*entry), sources) << "\n";
            }
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
