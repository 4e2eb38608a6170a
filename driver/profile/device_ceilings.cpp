#include "driver/profile/device_ceilings.h"

#include <unistd.h>
#include <fstream>

#include <nlohmann/json.hpp>

#include "driver/base/atomic_write.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/profile/detail/calibration_kernels.h"
#include "driver/profile/profile_client.h"

namespace optiml::profile {
namespace fs = std::filesystem;

namespace {

std::string slug(const std::string& text) {
    std::string out;
    for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    return out;
}

std::optional<Calibration> read_cached(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded()) return std::nullopt;  // damaged: measure again and overwrite
    Calibration c = json.get<Calibration>();
    // A file written before the bandwidth patterns existed holds the copy rate alone: measure
    // again.
    if (!c.ok || c.dram_bytes_per_s <= 0.0 || c.dram_by_pattern.empty()) return std::nullopt;
    return c;
}

// A read-only cache: the ceilings are simply measured again next time.
void write_atomically(const fs::path& path, const std::string& text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    base::try_write_file_atomically(path, text);
}

Calibration measure_now(const measure::DeviceInfo& device, const fs::path& scratch) {
    compile::CompileRequest request;
    request.source_text = calibration_source();
    request.source_name = "optiml_calibration.cu";
    request.name_expression = calibration_kernels().front().symbol;
    request.arch = device.arch;
    request.line_info = false;
    const compile::CompileResult compiled = compile::compile(request);
    Calibration failed;
    if (!compiled.ok) {
        failed.message = "calibration kernels do not compile: " + compiled.log;
        return failed;
    }
    const fs::path image = scratch / "optiml_calibration.cubin";
    {
        std::ofstream out(image, std::ios::binary);
        out << compiled.binary;
    }
    measure::WorkerProcess worker(measure::default_worker_path());
    return calibrate(worker, device.index, image, std::chrono::minutes(2));
}

}  // namespace

fs::path ceilings_path(const fs::path& cache_root, const measure::DeviceInfo& device) {
    return cache_root / "devices" /
           (slug(device.name) + "-driver" + std::to_string(device.driver) + ".json");
}

analysis::DeviceCeilings to_ceilings(const Calibration& calibration) {
    analysis::DeviceCeilings ceilings;
    ceilings.device = calibration.device;
    ceilings.dram_bytes_per_s = calibration.dram_bytes_per_s;
    ceilings.flops_per_s = calibration.flops_per_s;
    return ceilings;
}

std::optional<analysis::DeviceCeilings> device_ceilings(const measure::DeviceInfo& device,
                                                        const fs::path& cache_root,
                                                        const fs::path& scratch,
                                                        std::vector<std::string>& notes) {
    const fs::path cached = cache_root.empty() ? fs::path{} : ceilings_path(cache_root, device);
    if (!cached.empty())
        if (auto calibration = read_cached(cached)) return to_ceilings(*calibration);
    const Calibration calibration = measure_now(device, scratch);
    if (!calibration.ok) {
        notes.push_back("no roofline: calibrating the device failed (" + calibration.message + ")");
        return std::nullopt;
    }
    if (!cached.empty()) write_atomically(cached, nlohmann::json(calibration).dump(2) + "\n");
    return to_ceilings(calibration);
}

}  // namespace optiml::profile
