#include <iomanip>
#include <iostream>

#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/compile/image_cache.h"

namespace optiml::cli {
namespace {

cache::Store open_store(const std::string& dir) {
    return cache::Store(dir.empty() ? cache::default_cache_dir() : std::filesystem::path(dir));
}

// Runs a cache action, turning cache errors into one clear line and exit status 1.
template <typename Action>
void guarded(Action action) {
    try {
        action();
    } catch (const std::exception& e) {
        std::cerr << "optiml: error: " << e.what() << "\n";
        exit_status() = 1;
    }
}

}  // namespace

void add_cache_command(CLI::App& app) {
    auto* cache = app.add_subcommand("cache", "Inspect and manage the tuning cache");
    cache->require_subcommand(1);
    auto dir = std::make_shared<std::string>();
    cache->add_option(
        "--cache-dir", *dir,
        "Cache folder (default: $OPTIML_CACHE_DIR, $XDG_CACHE_HOME/optiml, ~/.cache/optiml)");

    cache->add_subcommand("ls", "List entries: key, kernel, arch, speedup, device")->callback([=] {
        guarded([&] {
            const auto store = open_store(*dir);
            for (const auto& key : store.keys()) {
                std::cout << key.substr(0, 16);
                try {
                    const auto entry = store.inspect(key);
                    const auto& m = entry->manifest;
                    std::cout << "  " << std::left << std::setw(16) << m.value("name", "?") << " "
                              << std::setw(6) << m.value("arch", "?") << " " << std::right
                              << std::fixed << std::setprecision(2) << std::setw(7)
                              << m.value("speedup", 0.0) << "x  "
                              << m.value("device", nlohmann::json::object()).value("name", "?");
                } catch (const cache::CacheError& e) {
                    std::cout << "  DAMAGED: " << e.what();
                }
                std::cout << "\n";
            }
        });
    });

    auto* show =
        cache->add_subcommand("show", "Print an entry's manifest (key or unique key prefix)");
    auto key = std::make_shared<std::string>();
    show->add_option("key", *key, "Key or prefix")->required();
    show->callback([=] {
        guarded([&] {
            const auto store = open_store(*dir);
            std::vector<std::string> matches;
            for (const auto& k : store.keys())
                if (k.rfind(*key, 0) == 0) matches.push_back(k);
            if (matches.size() != 1)
                throw cache::CacheError(std::to_string(matches.size()) + " entries match '" + *key +
                                        "'; give more of the key (optiml cache ls)");
            std::cout << store.inspect(matches[0])->manifest.dump(2) << "\n";
        });
    });

    cache->add_subcommand("verify", "Check every entry's files against its manifest")
        ->callback([=] {
            guarded([&] {
                int damaged = 0;
                for (const auto& result : open_store(*dir).verify()) {
                    std::cout << (result.ok ? "ok       " : "DAMAGED  ") << result.key
                              << (result.ok ? "" : "  " + result.problem) << "\n";
                    damaged += result.ok ? 0 : 1;
                }
                exit_status() = damaged ? 1 : 0;
            });
        });

    auto* gc = cache->add_subcommand("gc",
                                     "Remove damaged entries and stale temporaries; with "
                                     "--max-size, least recently used entries too");
    auto max_size = std::make_shared<std::optional<std::uint64_t>>();
    gc->add_option("--max-size", *max_size, "Keep the cache under this many bytes");
    gc->callback([=] {
        guarded([&] {
            const cache::Store store = open_store(*dir);
            for (const auto& removed : store.gc(*max_size))
                std::cout << "removed " << removed << "\n";
            // The compiled images of earlier tunings: a store of their own, trimmed alike.
            const std::filesystem::path images = compile::image_cache_dir(store.root());
            if (std::filesystem::exists(images))
                for (const auto& removed : cache::Store(images).gc(*max_size))
                    std::cout << "removed image " << removed << "\n";
        });
    });

    auto* exporter = cache->add_subcommand(
        "export", "Copy entries to a folder a project commits (a seed cache)");
    auto to = std::make_shared<std::string>();
    auto keys = std::make_shared<std::vector<std::string>>();
    exporter->add_option("--to", *to, "Destination folder")->required();
    exporter->add_option("keys", *keys, "Keys to export (default: all)");
    exporter->callback([=] {
        guarded([&] {
            for (const auto& k : open_store(*dir).export_to(*to, *keys))
                std::cout << "exported " << k << "\n";
        });
    });

    auto* importer =
        cache->add_subcommand("import", "Copy every entry of another cache folder into this one");
    auto from = std::make_shared<std::string>();
    importer->add_option("--from", *from, "Source folder")
        ->required()
        ->check(CLI::ExistingDirectory);
    importer->callback([=] {
        guarded([&] {
            for (const auto& k : open_store(*dir).import_from(*from))
                std::cout << "imported " << k << "\n";
        });
    });
}

}  // namespace optiml::cli
