// Internal to cache/: whole directories appear and disappear with one rename(2), so a reader
// sees an entry complete or not at all, and a crash leaves only a staging folder behind.
#pragma once

#include <filesystem>
#include <string>

namespace optiml::cache::detail {

// Creates a fresh, uniquely named folder <staging_root>/<label>.<pid>.<random>.
std::filesystem::path make_staging_dir(const std::filesystem::path& staging_root,
                                       const std::string& label);

enum class Placement { kPlaced, kAlreadyPresent };

// Renames the filled staging folder to `destination` (whose parent must exist). When another
// writer got there first, the staging folder is removed and theirs is kept.
Placement rename_into_place(const std::filesystem::path& staging,
                            const std::filesystem::path& destination);

enum class Removal { kRemoved, kAbsent, kInUse };

// Renames the entry folder `directory` into the staging area, then deletes it there, holding
// the entry's exclusive lock for the rename (entry_lock.h), so no reader loses it mid-read.
// kAbsent: it did not exist (e.g. another process removed it first). With `if_unused`, a folder
// that a reader holds is left in place (kInUse; gc's way); without, the removal waits for its
// readers to finish.
Removal remove_directory_atomically(const std::filesystem::path& directory,
                                    const std::filesystem::path& staging_root,
                                    const std::string& label, bool if_unused = false);

}  // namespace optiml::cache::detail
