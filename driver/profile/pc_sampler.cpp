#include "driver/profile/detail/pc_sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <cupti_pcsampling.h>

#include "driver/profile/detail/cupti_check.h"

namespace optiml::profile {
namespace {

constexpr std::size_t kPcsPerFetch = 4096;
constexpr std::uint32_t kWorkerSleepMs = 10;  // CUPTI's decoding threads wake this often
constexpr auto kPollInterval = std::chrono::milliseconds(20);

struct StallReasons {
    std::vector<std::uint32_t> indices;
    std::map<std::uint32_t, std::string> names;
};

StallReasons stall_reasons(CUcontext context) {
    std::size_t count = 0;
    CUpti_PCSamplingGetNumStallReasonsParams number{};
    number.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    number.ctx = context;
    number.numStallReasons = &count;
    cupti_check(cuptiPCSamplingGetNumStallReasons(&number), "cuptiPCSamplingGetNumStallReasons");
    std::vector<std::vector<char>> storage(count,
                                           std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
    std::vector<char*> names(count);
    for (std::size_t i = 0; i < count; ++i) names[i] = storage[i].data();
    StallReasons reasons;
    reasons.indices.resize(count);
    CUpti_PCSamplingGetStallReasonsParams get{};
    get.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    get.ctx = context;
    get.numStallReasons = count;
    get.stallReasonIndex = reasons.indices.data();
    get.stallReasons = names.data();
    cupti_check(cuptiPCSamplingGetStallReasons(&get), "cuptiPCSamplingGetStallReasons");
    for (std::size_t i = 0; i < count; ++i) reasons.names[reasons.indices[i]] = names[i];
    return reasons;
}

// The buffer CUPTI fills with PC records; each record owns a stall-reason array.
struct SampleBuffer {
    CUpti_PCSamplingData data{};
    std::vector<CUpti_PCSamplingPCData> pcs;
    std::vector<std::vector<CUpti_PCSamplingStallReason>> reasons;

    explicit SampleBuffer(std::size_t reason_count) : pcs(kPcsPerFetch), reasons(kPcsPerFetch) {
        for (std::size_t i = 0; i < kPcsPerFetch; ++i) {
            reasons[i].resize(reason_count);
            pcs[i] = {};
            pcs[i].size = sizeof(CUpti_PCSamplingPCData);
            pcs[i].stallReason = reasons[i].data();
        }
        data.size = sizeof(CUpti_PCSamplingData);
        data.collectNumPcs = kPcsPerFetch;
        data.pPcData = pcs.data();
    }
};

void set_attributes(CUcontext context, std::vector<CUpti_PCSamplingConfigurationInfo> info) {
    CUpti_PCSamplingConfigurationInfoParams params{};
    params.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    params.ctx = context;
    params.numAttributes = info.size();
    params.pPCSamplingConfigurationInfo = info.data();
    cupti_check(cuptiPCSamplingSetConfigurationAttribute(&params),
                "cuptiPCSamplingSetConfigurationAttribute");
}

// Maps (function, pc offset) to a source line through the CUBIN's line table, once per PC.
class LineMapper {
  public:
    explicit LineMapper(const std::string& cubin) : cubin_(cubin) {}
    std::pair<std::string, int> line_of(const char* function, std::uint64_t pc_offset) {
        const auto key = std::make_pair(std::string(function ? function : ""), pc_offset);
        if (auto it = known_.find(key); it != known_.end()) return it->second;
        CUpti_GetSassToSourceCorrelationParams params{};
        params.size = CUpti_GetSassToSourceCorrelationParamsSize;
        params.cubin = cubin_.data();
        params.cubinSize = cubin_.size();
        params.functionName = function;
        params.pcOffset = pc_offset;
        std::pair<std::string, int> where{"", 0};
        if (function && cuptiGetSassToSourceCorrelation(&params) == CUPTI_SUCCESS) {
            where = {params.fileName ? params.fileName : "", static_cast<int>(params.lineNumber)};
            std::free(params.fileName);
            std::free(params.dirName);
        }
        return known_[key] = where;
    }

  private:
    const std::string& cubin_;
    std::map<std::pair<std::string, std::uint64_t>, std::pair<std::string, int>> known_;
};

// PC sampling enabled on the context for this object's lifetime.
class SamplingEnabled {
  public:
    explicit SamplingEnabled(CUcontext context) : context_(context) {
        CUpti_PCSamplingEnableParams params{};
        params.size = CUpti_PCSamplingEnableParamsSize;
        params.ctx = context;
        cupti_check(cuptiPCSamplingEnable(&params), "cuptiPCSamplingEnable");
    }
    ~SamplingEnabled() {
        CUpti_PCSamplingDisableParams params{};
        params.size = CUpti_PCSamplingDisableParamsSize;
        params.ctx = context_;
        cuptiPCSamplingDisable(&params);
    }
    SamplingEnabled(const SamplingEnabled&) = delete;
    SamplingEnabled& operator=(const SamplingEnabled&) = delete;

  private:
    CUcontext context_;
};

// Start/stop control, the collection mode, the period, and `destination_buffer`: the buffer CUPTI
// writes records into at a kernel's end or at Stop.
void configure_sampling(CUcontext context, CUpti_PCSamplingData& destination_buffer,
                        std::uint32_t period, bool serialized) {
    CUpti_PCSamplingConfigurationInfo start_stop{};
    start_stop.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    start_stop.attributeData.enableStartStopControlData.enableStartStopControl = 1;
    CUpti_PCSamplingConfigurationInfo mode{};
    mode.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    mode.attributeData.collectionModeData.collectionMode =
        serialized ? CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED
                   : CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    CUpti_PCSamplingConfigurationInfo destination{};
    destination.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    destination.attributeData.samplingDataBufferData.samplingDataBuffer = &destination_buffer;
    CUpti_PCSamplingConfigurationInfo sampling_period{};
    sampling_period.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    sampling_period.attributeData.samplingPeriodData.samplingPeriod = period;
    CUpti_PCSamplingConfigurationInfo sleep_span{};
    sleep_span.attributeType =
        CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
    sleep_span.attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan =
        kWorkerSleepMs;
    set_attributes(context, {start_stop, mode, destination, sampling_period, sleep_span});
}

// `run` between Start and Stop, waited for; throws std::runtime_error when its launch failed.
void run_sampled(CUcontext context, const std::function<CUresult()>& run) {
    CUpti_PCSamplingStartParams start{};
    start.size = CUpti_PCSamplingStartParamsSize;
    start.ctx = context;
    cupti_check(cuptiPCSamplingStart(&start), "cuptiPCSamplingStart");
    CUresult ran = run();
    if (ran == CUDA_SUCCESS) ran = cuCtxSynchronize();
    CUpti_PCSamplingStopParams stop{};
    stop.size = CUpti_PCSamplingStopParamsSize;
    stop.ctx = context;
    cupti_check(cuptiPCSamplingStop(&stop), "cuptiPCSamplingStop");
    if (ran != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(ran, &name);
        throw std::runtime_error(std::string("sampled launch failed: ") +
                                 (name ? name : "CUDA error"));
    }
}

// The samples of one function by (file, line, reason), over every buffer of records handed to
// it; the sample counts go straight into `result`.
// CUPTI allocates each record's function name and may hand the same pointer to later sampling
// sessions in this process (the read-flush kernel appears in every one), so the names are never
// freed: a few bytes per kernel. Freeing them after each session is the likely cause of a worker
// crash (signal 11) seen on an H200 when a second variant was profiled in the same worker.
class StallTally {
  public:
    StallTally(const std::string& cubin, const std::string& function, const StallReasons& reasons,
               StallCollection& result)
        : function_(function), reasons_(reasons), result_(result), lines_(cubin) {}

    // Adds the buffer's records and empties it; true when it held any.
    bool consume(CUpti_PCSamplingData& data) {
        result_.total_samples += data.totalSamples;
        result_.dropped_samples += data.droppedSamples;
        buffer_full_ = buffer_full_ || data.hardwareBufferFull != 0;
        for (std::size_t p = 0; p < data.totalNumPcs; ++p) {
            const CUpti_PCSamplingPCData& pc = data.pPcData[p];
            if (!pc.functionName || function_ != pc.functionName) continue;  // e.g. the flush
            const auto [file, line] = lines_.line_of(pc.functionName, pc.pcOffset);
            for (std::size_t r = 0; r < pc.stallReasonCount; ++r) {
                const auto& reason = pc.stallReason[r];
                auto name = reasons_.names.find(reason.pcSamplingStallReasonIndex);
                if (reason.samples == 0 || name == reasons_.names.end()) continue;
                by_line_[{file, line, name->second}] += reason.samples;
            }
        }
        const bool had_records = data.totalNumPcs > 0;
        data.totalNumPcs = 0;
        data.totalSamples = 0;
        data.droppedSamples = 0;
        return had_records;
    }

    // The samples by line into the result, or the note that says why there are none.
    void finish(std::uint32_t period, bool serialized) {
        for (const auto& [where, samples] : by_line_) {
            analysis::StallSample sample;
            std::tie(sample.file, sample.line, sample.reason) = where;
            sample.samples = samples;
            result_.samples.push_back(std::move(sample));
        }
        result_.done = !by_line_.empty();
        if (by_line_.empty())
            result_.note = std::string("PC sampling returned no samples for this kernel") +
                           (buffer_full_ ? " (CUPTI's hardware buffer was full)" : "") +
                           " at period 2^" + std::to_string(period) + " cycles (" +
                           (serialized ? "kernel-serialized" : "continuous") + " mode)";
    }

  private:
    const std::string& function_;
    const StallReasons& reasons_;
    StallCollection& result_;
    LineMapper lines_;
    std::map<std::tuple<std::string, int, std::string>, std::uint64_t> by_line_;
    bool buffer_full_ = false;
};

// Every record of the session into `tally`: those CUPTI left in the configured buffer and those
// it keeps for cuptiPCSamplingGetData. CUPTI decodes the hardware buffer on worker threads, so
// the last kernel's samples can arrive after Stop: poll until some came and then a few polls in a
// row bring nothing (or a deadline passes).
void drain_records(CUcontext context, CUpti_PCSamplingData& configured,
                   CUpti_PCSamplingData& fetched, StallTally& tally) {
    CUpti_PCSamplingGetDataParams get{};
    get.size = CUpti_PCSamplingGetDataParamsSize;
    get.ctx = context;
    get.pcSamplingData = &fetched;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    int empty_polls = 0;
    bool got_any = false;
    while (std::chrono::steady_clock::now() < deadline) {
        bool got = tally.consume(configured);
        cupti_check(cuptiPCSamplingGetData(&get), "cuptiPCSamplingGetData");
        const bool more = fetched.remainingNumPcs > 0;
        got = tally.consume(fetched) || got;
        got_any = got_any || got;
        empty_polls = got ? 0 : empty_polls + 1;
        if (more) continue;  // more already decoded: fetch now
        if (got_any && empty_polls >= 3) break;
        std::this_thread::sleep_for(kPollInterval);
    }
}

}  // namespace

std::uint32_t sampling_period_for(double kernel_ms, int launches, int sms) {
    constexpr double kAssumedClockHz = 2.0e9;  // an estimate is enough: only the order matters
    constexpr double kMaxSamplesPerLaunch = 200000.0;
    constexpr double kTargetSamples = 1000000.0;
    auto exponent_for = [&](double ms, double samples) {
        const double cycles = ms * 1e-3 * kAssumedClockHz * 4.0 * std::max(sms, 1);
        return std::ceil(std::log2(std::max(cycles / samples, 1.0)));
    };
    const double exponent = std::max(exponent_for(kernel_ms, kMaxSamplesPerLaunch),
                                     exponent_for(kernel_ms * launches, kTargetSamples));
    return static_cast<std::uint32_t>(std::clamp(exponent, 5.0, 31.0));
}

StallCollection sample_stalls(CUcontext context, const std::string& cubin,
                              const std::string& function, std::uint32_t period, bool serialized,
                              const std::function<CUresult()>& run) {
    StallCollection result;
    try {
        SamplingEnabled enabled(context);
        const StallReasons reasons = stall_reasons(context);
        // CUPTI writes records into the buffer given in the configuration (at a kernel's end or
        // at Stop) and keeps what does not fit for cuptiPCSamplingGetData, which needs a buffer
        // of its own: fetching into the configured one overwrote the records already there
        // (the 51 ms original matmul on an H200, two launches, came back empty that way).
        SampleBuffer configured(reasons.indices.size());
        SampleBuffer fetched(reasons.indices.size());
        configure_sampling(context, configured.data, period, serialized);
        run_sampled(context, run);
        StallTally tally(cubin, function, reasons, result);
        drain_records(context, configured.data, fetched.data, tally);
        tally.finish(period, serialized);
    } catch (const CuptiError& e) {
        if (!e.insufficient_rights()) throw;
        result.note =
            std::string("no profiling rights on this GPU (") + e.what() + "): no stall samples";
    }
    return result;
}

}  // namespace optiml::profile
