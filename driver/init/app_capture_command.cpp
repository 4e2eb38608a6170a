#include "driver/init/app_capture_command.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/base/atomic_write.h"
#include "driver/base/run_process.h"
#include "driver/init/detail/captured_spec.h"
#include "driver/init/spec_skeleton.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/app_capture.h"
#include "driver/profile/profile_error.h"
#include "driver/profile/record_folder.h"
#include "driver/profile/run_program.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace fs = std::filesystem;

namespace optiml::init {
namespace {

struct Source {
    fs::path path;
    std::string text;
};

std::string read_text(const fs::path& path) {
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// The first source that defines `kernel`, or nullptr.
const Source* defining_source(const std::vector<Source>& sources, const std::string& kernel) {
    for (const Source& source : sources) {
        try {
            source::find_kernel(source.text, kernel);
            return &source;
        } catch (const source::RewriteError&) {
        }
    }
    return nullptr;
}

void write_or_throw(const fs::path& path, const std::string& data) {
    if (const std::string error = base::try_write_file_atomically(path, data); !error.empty()) {
        throw profile::ProfileError(error + "; choose a writable --output-dir");
    }
}

// The snapshot's first `count` elements as the fill's raw file, and beside it a JSON sidecar
// saying what the bytes are.
void store_snapshot(const SnapshotUse& use, const fs::path& output_dir, const std::string& kernel,
                    const std::string& program) {
    const std::uint64_t bytes = use.count * spec::size_of(use.type);
    std::ifstream stream(use.from, std::ios::binary);
    std::string data(bytes, '\0');
    if (!stream.read(data.data(), static_cast<std::streamsize>(bytes))) {
        throw profile::ProfileError("the snapshot " + use.from + " of " + use.argument +
                                    " holds fewer than " + std::to_string(bytes) +
                                    " bytes; rerun the capture");
    }
    const fs::path to = output_dir / use.to;
    fs::create_directories(to.parent_path());
    write_or_throw(to, data);
    const nlohmann::json sidecar = {
        {"format", "optiml-snapshot"}, {"version", 1},      {"type", spec::to_string(use.type)},
        {"count", use.count},          {"bytes", bytes},    {"kernel", kernel},
        {"argument", use.argument},    {"program", program}};
    write_or_throw(to.string() + ".json", sidecar.dump(2) + "\n");
}

std::string dim3_line(const std::array<std::uint32_t, 3>& dim) {
    return "[" + std::to_string(dim[0]) + ", " + std::to_string(dim[1]) + ", " +
           std::to_string(dim[2]) + "]";
}

std::string launched_names(const analysis::HotKernelReport& report) {
    std::string names;
    for (const analysis::KernelTime& kernel : report.kernels)
        names += (names.empty() ? "" : ", ") + kernel.short_name;
    return names;
}

// The kernels to write specs for; an unknown --kernel name is reported and skipped.
std::vector<const analysis::KernelTime*> chosen_kernels(const analysis::HotKernelReport& report,
                                                        const std::vector<std::string>& names,
                                                        std::ostream& err, int& failures) {
    std::vector<const analysis::KernelTime*> chosen;
    if (names.empty()) {
        for (const analysis::KernelTime& kernel : report.kernels)
            if (kernel.hot) chosen.push_back(&kernel);
        return chosen;
    }
    for (const std::string& name : names) {
        const analysis::KernelTime* found = nullptr;
        for (const analysis::KernelTime& kernel : report.kernels)
            if (!found && (kernel.short_name == name || kernel.name == name)) found = &kernel;
        if (found != nullptr) {
            chosen.push_back(found);
        } else {
            err << "optiml: error: --kernel " << name << ": the program launched no such kernel "
                << "(it launched " << launched_names(report) << ")\n";
            ++failures;
        }
    }
    return chosen;
}

// Writes one kernel's spec (and its data); false after saying why not.
bool write_kernel_spec(const analysis::KernelTime& kernel, const profile::AppCapture& capture,
                       const std::vector<Source>& sources, const CaptureOptions& options,
                       std::ostream& out, std::ostream& err) {
    const std::string& name = kernel.short_name;
    const profile::activity::CapturedLaunch* launch =
        profile::captured_launch(capture, kernel.name);
    if (launch == nullptr) {
        err << "optiml: error: " << name << ": its launches were recorded but none was captured "
            << "(launched only inside a CUDA graph?); capture a run that launches it directly\n";
        return false;
    }
    const Source* source = defining_source(sources, name);
    if (source == nullptr) {
        std::string files;
        for (const Source& s : sources) files += (files.empty() ? "" : ", ") + s.path.string();
        err << "optiml: error: " << name << ": none of the --source files (" << files
            << ") defines __global__ " << name << "; add --source <the file that defines it>\n";
        return false;
    }
    const fs::path spec_path = options.output_dir / (name + ".optiml.json");
    if (fs::exists(spec_path) && !options.force) {
        err << "optiml: error: " << spec_path.string()
            << " already exists; pass --force to overwrite it, or another --output-dir\n";
        return false;
    }
    // The spec names its source (and its data) relative to its own folder.
    const std::string source_path = fs::absolute(source->path)
                                        .lexically_normal()
                                        .lexically_relative(fs::absolute(options.output_dir))
                                        .generic_string();
    const std::string program = base::command_line(options.program);
    CapturedSpec spec;
    try {
        spec = captured_spec(source->text, source_path, name, *launch, program,
                             options.snapshot ? name + ".data" : "");
    } catch (const std::exception& e) {
        err << "optiml: error: " << name << ": " << e.what() << "\n";
        return false;
    }
    for (const SnapshotUse& use : spec.snapshots)
        store_snapshot(use, options.output_dir, launch->name, program);
    write_or_throw(spec_path, spec.text);
    out << "optiml: wrote " << spec_path.string() << " for " << name << " (" << source_path
        << "): grid " << dim3_line(launch->grid) << ", block " << dim3_line(launch->block);
    if (!spec.snapshots.empty())
        out << ", " << spec.snapshots.size() << " inputs' data in " << name << ".data/";
    const std::size_t markers = count_markers(spec.text);
    out << "; " << markers << " decisions left as \"TODO: ...\"\n";
    for (const std::string& note : spec.notes) out << "  note: " << note << "\n";
    return true;
}

}  // namespace

std::string capture_options_problem(const CaptureOptions& options) {
    if (options.program.empty() || options.program.front().empty())
        return "no program to capture: name it after `--`, e.g. `optiml capture --source "
               "kernels.cu -- ./app --size 1024`";
    if (options.sources.empty())
        return "no kernel source given: name the files that define the kernels with --source "
               "<file.cu> (repeat it for several)";
    for (const fs::path& source : options.sources)
        if (!fs::is_regular_file(source))
            return "--source " + source.string() +
                   ": no such file; name the .cu file that defines the kernel";
    if (fs::exists(options.output_dir) && !fs::is_directory(options.output_dir))
        return "--output-dir " + options.output_dir.string() +
               " is a file; name a folder (it is created if missing)";
    if (options.snapshot && options.snapshot_limit_bytes == 0)
        return "--snapshot-limit must be at least 1 (MiB)";
    return "";
}

int run_capture_command(const CaptureOptions& options, std::ostream& out, std::ostream& err) {
    if (const std::string problem = capture_options_problem(options); !problem.empty()) {
        err << "optiml: error: " << problem << "\n";
        return 2;
    }
    std::vector<Source> sources;
    for (const fs::path& path : options.sources) sources.push_back({path, read_text(path)});
    int failures = 0;
    try {
        const fs::path library = profile::find_activity_library();
        const profile::RecordFolder records("optiml-capture");
        analysis::HotKernelOptions hot;
        hot.target = fs::path(options.program.front()).filename().string();
        out << "optiml: capturing `" << base::command_line(options.program)
            << "` (the first launch of each kernel, through CUPTI"
            << (options.snapshot ? ", with the data its pointers point to" : "")
            << "); its output follows\n";
        out.flush();
        const profile::AppCapture capture =
            profile::capture_app(options.program, library, records.path(), options.snapshot,
                                 options.snapshot_limit_bytes, hot);
        if (const std::string problem = profile::capture_problem(capture); !problem.empty()) {
            err << "optiml: error: " << problem << "\n";
            return 1;
        }
        for (const std::string& warning : profile::profile_warnings(capture.profile))
            err << "optiml: warning: " << warning << "\n";
        for (const std::string& error : capture.capture_errors)
            err << "optiml: warning: capture failed in one process (" << error
                << "); its kernels have no spec\n";
        fs::create_directories(options.output_dir);
        for (const analysis::KernelTime* kernel :
             chosen_kernels(capture.profile.report, options.kernels, err, failures)) {
            if (!write_kernel_spec(*kernel, capture, sources, options, out, err)) ++failures;
        }
    } catch (const profile::ProfileError& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    } catch (const fs::filesystem_error& e) {
        err << "optiml: error: " << e.what() << "; choose a writable --output-dir\n";
        return 1;
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace optiml::init
