#include <iomanip>
#include <iostream>

#include "cache/build_cache.h"
#include "cache/entry_manifest.h"
#include "cache/remote_transfer.h"
#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/compile/image_cache.h"
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/spec/spec.h"
#include "driver/tune/llm_settings.h"
#include "driver/tune/timing_conditions.h"

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

void add_remote_commands(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
    auto* push = cache->add_subcommand(
        "push", "Upload entries to the remote cache, signed with $OPTIML_SIGNING_KEY");
    auto push_url = std::make_shared<std::string>();
    auto push_keys = std::make_shared<std::vector<std::string>>();
    push->add_option("--remote-cache", *push_url,
                     "Remote cache URL (default: $OPTIML_REMOTE_CACHE)");
    push->add_option("keys", *push_keys, "Keys to upload (default: all)");
    push->callback([=] {
        guarded([&] {
            for (const auto& pushed : cache::push_entries(
                     open_store(*dir), *push_keys, cache::required_remote_config(*push_url, ""),
                     cache::SigningKey::from_environment()))
                std::cout << (pushed.uploaded ? "pushed " : "already there ") << pushed.key << "\n";
        });
    });

    auto* pull = cache->add_subcommand(
        "pull",
        "Download entries from the remote cache into this one, if a trusted key signed them");
    auto pull_url = std::make_shared<std::string>();
    auto pull_keys = std::make_shared<std::vector<std::string>>();
    auto trusted = std::make_shared<std::vector<std::filesystem::path>>();
    pull->add_option("--remote-cache", *pull_url,
                     "Remote cache URL (default: $OPTIML_REMOTE_CACHE)");
    pull->add_option("--trusted-keys", *trusted,
                     "Trusted-keys file, e.g. <seed>/trusted-keys.txt (repeatable; also "
                     "$OPTIML_TRUSTED_KEYS)");
    pull->add_option("keys", *pull_keys, "Keys to download")->required();
    pull->callback([=] {
        guarded([&] {
            const auto keys = cache::load_trusted_keys({}, *trusted);
            if (keys->empty())
                throw cache::CacheError(
                    "pull checks signatures: pass --trusted-keys <file> (or set "
                    "OPTIML_TRUSTED_KEYS) naming the project's trusted-keys file");
            cache::Store store = open_store(*dir);
            for (const auto& k : cache::pull_entries(
                     store, *pull_keys, cache::required_remote_config(*pull_url, ""), *keys))
                std::cout << "pulled " << k << "\n";
        });
    });

    auto* keygen = cache->add_subcommand(
        "keygen",
        "Create an Ed25519 signing key pair for a tuning runner (<name>.pem, <name>.pub)");
    auto out = std::make_shared<std::string>();
    auto name = std::make_shared<std::string>("optiml-signing");
    auto comment = std::make_shared<std::string>("optiml tuner key");
    keygen->add_option("--out", *out, "Folder for the key files (keep it outside the repository)")
        ->required();
    keygen->add_option("--name", *name, "File name stem")->capture_default_str();
    keygen->add_option("--comment", *comment, "Comment after the public key (who holds it)")
        ->capture_default_str();
    keygen->callback([=] {
        guarded([&] {
            const auto pub = cache::write_key_pair(*out, *name, *comment);
            std::cout << "wrote " << (std::filesystem::path(*out) / (*name + ".pem")).string()
                      << " (private, mode 0600) and " << pub.string()
                      << "; add the line of the .pub file to the project's trusted-keys.txt\n";
        });
    });

    auto* sign = cache->add_subcommand(
        "sign", "Sign entries in place (all by default), e.g. a seed folder before committing it");
    auto key_file = std::make_shared<std::string>();
    auto sign_keys = std::make_shared<std::vector<std::string>>();
    sign->add_option("--key", *key_file, "Private key (.pem; default: $OPTIML_SIGNING_KEY)");
    sign->add_option("keys", *sign_keys, "Keys to sign (default: all)");
    sign->callback([=] {
        guarded([&] {
            std::optional<cache::SigningKey> key = key_file->empty()
                                                       ? cache::SigningKey::from_environment()
                                                       : cache::SigningKey::load(*key_file);
            if (!key)
                throw cache::CacheError(
                    "no signing key: pass --key <file.pem> or set OPTIML_SIGNING_KEY (create one "
                    "with `optiml cache keygen --out <dir>`)");
            const std::filesystem::path root =
                dir->empty() ? cache::default_cache_dir() : std::filesystem::path(*dir);
            for (const auto& k : cache::sign_entries(root, *sign_keys, *key))
                std::cout << "signed " << k << "\n";
        });
    });
}

// `cache ls`: one line an entry.
void add_ls_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
    cache
        ->add_subcommand(
            "ls", "List entries: key, kernel, arch, speedup and its timing condition, device")
        ->callback([=] {
            guarded([&] {
                const auto store = open_store(*dir);
                for (const auto& key : store.keys()) {
                    std::cout << key.substr(0, 16);
                    try {
                        const auto entry = store.inspect(key);
                        const cache::EntryManifest m = cache::read_entry_manifest(*entry);
                        const auto shown = [](const std::string& text) {
                            return text.empty() ? std::string("?") : text;
                        };
                        std::cout << "  " << std::left << std::setw(16) << shown(m.name) << " "
                                  << std::setw(6) << shown(m.arch) << " " << std::right
                                  << std::fixed << std::setprecision(2) << std::setw(7) << m.speedup
                                  << "x " << tune::speedup_condition(m) << "  "
                                  << shown(m.device.name);
                    } catch (const cache::CacheError& e) {
                        std::cout << "  DAMAGED: " << e.what();
                    }
                    std::cout << "\n";
                }
            });
        });
}

// `cache show KEY`: an entry's manifest.
void add_show_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
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
}

// `cache verify`: every entry's files against its manifest.
void add_verify_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
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
}

// `cache gc`: damaged entries, stale temporaries and, over a size, the least recently used.
void add_gc_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
    auto* gc = cache->add_subcommand("gc",
                                     "Remove damaged entries and stale temporaries; with "
                                     "--max-size, least recently used entries too");
    auto max_size = std::make_shared<std::optional<std::uint64_t>>();
    gc->add_option("--max-size", *max_size, "Keep the cache under this many bytes");
    gc->callback([=] {
        guarded([&] {
            const cache::Store store = open_store(*dir);
            std::vector<std::string> in_use;
            for (const auto& removed : store.gc(*max_size, &in_use))
                std::cout << "removed " << removed << "\n";
            for (const auto& kept : in_use)
                std::cout << "kept " << kept << " (a build is reading it)\n";
            // The compiled images of earlier tunings: a store of their own, trimmed alike.
            const std::filesystem::path images = compile::image_cache_dir(store.root());
            if (std::filesystem::exists(images))
                for (const auto& removed : cache::Store(images).gc(*max_size))
                    std::cout << "removed image " << removed << "\n";
        });
    });
}

// `cache export --to DIR`: entries for a seed cache, signed where a tuner's key is set.
void add_export_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
    auto* exporter = cache->add_subcommand(
        "export", "Copy entries to a folder a project commits (a seed cache)");
    auto to = std::make_shared<std::string>();
    auto keys = std::make_shared<std::vector<std::string>>();
    exporter->add_option("--to", *to, "Destination folder")->required();
    exporter->add_option("keys", *keys, "Keys to export (default: all)");
    exporter->callback([=] {
        guarded([&] {
            const std::vector<std::string> exported = open_store(*dir).export_to(*to, *keys);
            for (const auto& k : exported) std::cout << "exported " << k << "\n";
            // A seed ships only signed (docs/caching.md, "Trust"): a tuner's key signs it here.
            if (const auto signer = cache::SigningKey::from_environment();
                signer && !exported.empty())
                for (const auto& k : cache::sign_entries(*to, exported, *signer))
                    std::cout << "signed " << k << "\n";
        });
    });
}

// `cache import --from DIR`.
void add_import_command(CLI::App* cache, const std::shared_ptr<std::string>& dir) {
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

// `cache key --spec FILE`: the key a build computes (no GPU needed).
void add_key_command(CLI::App* cache) {
    auto* key_command = cache->add_subcommand(
        "key", "Print a spec's cache key for an architecture (no GPU needed), e.g. for pull");
    auto spec_file = std::make_shared<std::string>();
    auto arch = std::make_shared<int>(90);
    key_command->add_option("--spec", *spec_file, "Kernel spec (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    key_command->add_option("--arch", *arch, "Architecture number, e.g. 90")->capture_default_str();
    auto build_dir = std::make_shared<std::string>();
    key_command
        ->add_option("--build-dir", *build_dir,
                     "A build folder of the project: the key as that build computes it (its "
                     "target's flags, strategy and LLM settings, from its build manifest)")
        ->check(CLI::ExistingDirectory);
    // The LLM configuration (environment and flags) is part of the key as a build's is.
    auto llm = std::make_shared<llm::LlmOverrides>();
    add_llm_options(*key_command, *llm);
    key_command->callback([=] {
        guarded([&] {
            const identity::ResolvedKernel kernel =
                identity::resolve_kernel(*spec_file, *build_dir);
            const llm::LlmConfig config = tune::build_llm_config(kernel, llm::resolve_config(*llm));
            std::cout << cache::compute_key(identity::key_inputs(
                             kernel.spec, kernel.sources, *arch,
                             tune::llm_key_inputs(config, kernel.spec.budget.strategy)))
                      << "\n";
        });
    });
}

}  // namespace

void add_cache_command(CLI::App& app) {
    auto* cache = app.add_subcommand("cache", "Inspect and manage the tuning cache");
    cache->require_subcommand(1);
    auto dir = std::make_shared<std::string>();
    cache->add_option(
        "--cache-dir", *dir,
        "Cache folder (default: $OPTIML_CACHE_DIR, $XDG_CACHE_HOME/optiml, ~/.cache/optiml)");
    add_ls_command(cache, dir);
    add_show_command(cache, dir);
    add_verify_command(cache, dir);
    add_gc_command(cache, dir);
    add_export_command(cache, dir);
    add_import_command(cache, dir);
    add_remote_commands(cache, dir);
    add_key_command(cache);
}

}  // namespace optiml::cli
