#include "driver/profile/profile_client.h"

namespace optiml::profile {

ProfileResult profile_variant(measure::RemoteSession& session, const measure::LaunchSpec& launch,
                              const ProfileRequest& request, std::chrono::milliseconds timeout) {
    ProfileResult result;
    std::string why;
    const auto reply = session.request(
        {{"op", "profile"}, {"launch", launch}, {"request", request}}, timeout, why);
    if (!reply) {
        result.message = why;
        return result;
    }
    if (!reply->received) {
        result.message = "profiling: " + reply->failure;
        return result;
    }
    return reply->json.get<ProfileResult>();
}

Calibration calibrate(measure::WorkerProcess& process, int device,
                      const std::filesystem::path& image, std::chrono::milliseconds timeout) {
    auto reply = process.request(
        {{"op", "calibrate"}, {"device", device}, {"image", image.string()}}, timeout);
    if (!reply.received) {
        Calibration failed;
        failed.message = "calibration: " + reply.failure;
        return failed;
    }
    return reply.json.get<Calibration>();
}

}  // namespace optiml::profile
