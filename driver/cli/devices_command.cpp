#include <iostream>

#include "driver/cli/commands.h"
#include "driver/identity/kernel_key.h"
#include "driver/measure/worker_client.h"

namespace optiml::cli {

void add_devices_command(CLI::App& app) {
    app.add_subcommand("devices",
                       "List the GPUs this machine can tune on (none: builds use caches only)")
        ->callback([] {
            const auto probe = measure::probe_devices(measure::default_worker_path());
            if (!probe.problem.empty()) {  // not "no GPU": this machine may well have one
                std::cerr << "optiml: error: " << probe.problem << "\n";
                exit_status() = 1;
                return;
            }
            if (probe.devices.empty()) std::cout << "no CUDA GPU available: " << probe.note << "\n";
            for (const auto& d : probe.devices)
                std::cout << d.index << ": " << d.name << " (" << identity::arch_name(d.arch)
                          << ", " << d.sms << " SMs, L2 " << d.l2_bytes / (1024 * 1024)
                          << " MiB, driver " << d.driver << ")\n";
        });
}

}  // namespace optiml::cli
