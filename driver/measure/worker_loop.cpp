#include "driver/measure/worker_loop.h"

#include <iostream>
#include <memory>

namespace optiml::measure {
namespace {

void reply(const nlohmann::json& message) {
    std::cout << message.dump() << '\n' << std::flush;
}

nlohmann::json error(const std::string& message) {
    return {{"ok", false}, {"status", "error"}, {"message", message}};
}

}  // namespace

int serve_worker(const std::map<std::string, WorkerOp>& extra_ops) {
    // By problem index (protocol.h): 0 is the spec's own size, 1.. its extra sizes.
    std::map<int, std::unique_ptr<GpuSession>> sessions;
    std::string line;
    while (std::getline(std::cin, line)) {
        nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
        if (request.is_discarded() || !request.contains("op")) {
            reply(error("worker: malformed request"));
            continue;
        }
        const std::string op = request["op"].get<std::string>();
        try {
            std::unique_ptr<GpuSession>& session = sessions[request.value("problem_index", 0)];
            const auto extra = extra_ops.find(op);
            if (op == "probe") {
                reply(probe_devices());
            } else if (op == "setup") {
                session.reset();
                session = std::make_unique<GpuSession>(request.at("device").get<int>(),
                                                       request.at("problem").get<Problem>());
                reply({{"ok", true}});
            } else if (extra != extra_ops.end()) {
                if (extra->second.needs_session && !session) {
                    reply(error("worker: send \"setup\" first"));
                    continue;
                }
                reply(extra->second.run(request, session.get()));
            } else if (op == "reference" || op == "evaluate" || op == "reverify" ||
                       op == "verify") {
                if (!session) {
                    reply(error("worker: send \"setup\" first"));
                    continue;
                }
                const auto launch = request.at("launch").get<LaunchSpec>();
                Measurement m;
                if (op == "reference") {
                    m = session->run_reference(launch);
                } else if (op == "reverify") {
                    m = session->reverify(launch, request.at("seed").get<std::uint64_t>());
                } else if (op == "verify") {
                    m = session->verify(launch);
                } else {
                    const auto evaluate = request.get<EvaluateRequest>();
                    m = session->evaluate(launch, evaluate.timing,
                                          evaluate.incumbent ? &*evaluate.incumbent : nullptr,
                                          evaluate.verified);
                }
                reply(m);
                if (m.fatal) return 3;
            } else {
                reply(error("worker: unknown op '" + op + "'"));
            }
        } catch (const std::exception& e) {
            reply(error(e.what()));
        }
    }
    return 0;
}

}  // namespace optiml::measure
