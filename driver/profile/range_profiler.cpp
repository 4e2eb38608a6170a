#include "driver/profile/detail/range_profiler.h"

#include <cstdint>
#include <stdexcept>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "driver/profile/detail/cupti_check.h"

namespace optiml::profile {
namespace {

// CUPTI's parameter structs: zeroed, with their size set (how CUPTI versions them).
template <class Params>
Params make_params(std::size_t size) {
    Params params{};
    params.structSize = size;
    return params;
}

void check_launch(CUresult result, const char* what) {
    if (result == CUDA_SUCCESS) return;
    const char* name = nullptr;
    cuGetErrorName(result, &name);
    throw std::runtime_error(std::string(what) + " failed: " + (name ? name : "CUDA error"));
}

std::string chip_name(CUdevice device) {
    auto params =
        make_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    params.deviceIndex = static_cast<std::size_t>(device);
    cupti_check(cuptiDeviceGetChipName(&params), "cuptiDeviceGetChipName");
    return params.pChipName;
}

std::vector<std::uint8_t> counter_availability(CUcontext context) {
    auto params = make_params<CUpti_Profiler_GetCounterAvailability_Params>(
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    params.ctx = context;
    cupti_check(cuptiProfilerGetCounterAvailability(&params),
                "cuptiProfilerGetCounterAvailability");
    std::vector<std::uint8_t> image(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image.data();
    cupti_check(cuptiProfilerGetCounterAvailability(&params),
                "cuptiProfilerGetCounterAvailability");
    return image;
}

// The host object evaluates metric names for one chip; freed on scope exit.
class HostObject {
  public:
    HostObject(const std::string& chip, const std::vector<std::uint8_t>& availability) {
        auto params = make_params<CUpti_Profiler_Host_Initialize_Params>(
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
        params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        params.pChipName = chip.c_str();
        params.pCounterAvailabilityImage = availability.data();
        cupti_check(cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize");
        object_ = params.pHostObject;
    }
    ~HostObject() {
        auto params = make_params<CUpti_Profiler_Host_Deinitialize_Params>(
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
        params.pHostObject = object_;
        cuptiProfilerHostDeinitialize(&params);
    }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    bool knows(const std::string& metric) const {
        auto params = make_params<CUpti_Profiler_Host_GetMetricProperties_Params>(
            CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
        params.pHostObject = object_;
        params.pMetricName = metric.c_str();
        return cuptiProfilerHostGetMetricProperties(&params) == CUPTI_SUCCESS;
    }

    std::vector<std::uint8_t> config_image(std::vector<const char*>& metrics, int& passes) {
        auto add = make_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
        add.pHostObject = object_;
        add.ppMetricNames = metrics.data();
        add.numMetrics = metrics.size();
        cupti_check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
        auto size = make_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
        size.pHostObject = object_;
        cupti_check(cuptiProfilerHostGetConfigImageSize(&size),
                    "cuptiProfilerHostGetConfigImageSize");
        std::vector<std::uint8_t> image(size.configImageSize);
        auto get = make_params<CUpti_Profiler_Host_GetConfigImage_Params>(
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
        get.pHostObject = object_;
        get.configImageSize = image.size();
        get.pConfigImage = image.data();
        cupti_check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
        auto count = make_params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
            CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
        count.configImageSize = image.size();
        count.pConfigImage = image.data();
        cupti_check(cuptiProfilerHostGetNumOfPasses(&count), "cuptiProfilerHostGetNumOfPasses");
        passes = static_cast<int>(count.numOfPasses);
        return image;
    }

    std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data,
                                 std::vector<const char*>& metrics) {
        std::vector<double> values(metrics.size(), 0.0);
        auto params = make_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        params.pHostObject = object_;
        params.pCounterDataImage = counter_data.data();
        params.counterDataImageSize = counter_data.size();
        params.rangeIndex = 0;
        params.ppMetricNames = metrics.data();
        params.numMetrics = metrics.size();
        params.pMetricValues = values.data();
        cupti_check(cuptiProfilerHostEvaluateToGpuValues(&params),
                    "cuptiProfilerHostEvaluateToGpuValues");
        return values;
    }

  private:
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

// Range profiling enabled on the context for this object's lifetime.
class RangeProfilerSession {
  public:
    explicit RangeProfilerSession(CUcontext context) {
        auto params = make_params<CUpti_RangeProfiler_Enable_Params>(
            CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
        params.ctx = context;
        cupti_check(cuptiRangeProfilerEnable(&params), "cuptiRangeProfilerEnable");
        object_ = params.pRangeProfilerObject;
    }
    ~RangeProfilerSession() {
        auto params = make_params<CUpti_RangeProfiler_Disable_Params>(
            CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
        params.pRangeProfilerObject = object_;
        cuptiRangeProfilerDisable(&params);
    }
    RangeProfilerSession(const RangeProfilerSession&) = delete;
    RangeProfilerSession& operator=(const RangeProfilerSession&) = delete;

    std::vector<std::uint8_t> counter_data(std::vector<const char*>& metrics) {
        auto size = make_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
        size.pRangeProfilerObject = object_;
        size.pMetricNames = metrics.data();
        size.numMetrics = metrics.size();
        size.maxNumOfRanges = 1;
        size.maxNumRangeTreeNodes = 1;
        cupti_check(cuptiRangeProfilerGetCounterDataSize(&size),
                    "cuptiRangeProfilerGetCounterDataSize");
        std::vector<std::uint8_t> data(size.counterDataSize, 0);
        auto init = make_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
        init.pRangeProfilerObject = object_;
        init.counterDataSize = data.size();
        init.pCounterData = data.data();
        cupti_check(cuptiRangeProfilerCounterDataImageInitialize(&init),
                    "cuptiRangeProfilerCounterDataImageInitialize");
        return data;
    }

    void configure(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& data,
                   CUpti_ProfilerReplayMode replay) {
        auto params = make_params<CUpti_RangeProfiler_SetConfig_Params>(
            CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
        params.pRangeProfilerObject = object_;
        params.configSize = config.size();
        params.pConfig = config.data();
        params.counterDataImageSize = data.size();
        params.pCounterDataImage = data.data();
        params.range = CUPTI_AutoRange;
        params.replayMode = replay;
        params.maxRangesPerPass = 1;
        params.numNestingLevels = 1;
        params.minNestingLevel = 1;
        params.passIndex = 0;
        params.targetNestingLevel = 1;
        cupti_check(cuptiRangeProfilerSetConfig(&params), "cuptiRangeProfilerSetConfig");
    }

    // One pass: the one launch is the one (auto) range. Returns whether all passes are done.
    bool run_pass(const std::function<CUresult()>& launch) {
        auto start = make_params<CUpti_RangeProfiler_Start_Params>(
            CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        start.pRangeProfilerObject = object_;
        cupti_check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
        CUresult launched = launch();
        if (launched == CUDA_SUCCESS) launched = cuCtxSynchronize();
        auto stop = make_params<CUpti_RangeProfiler_Stop_Params>(
            CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = object_;
        cupti_check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
        check_launch(launched, "profiled launch");
        return stop.isAllPassSubmitted != 0;
    }

    void decode() {
        auto params = make_params<CUpti_RangeProfiler_DecodeData_Params>(
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        params.pRangeProfilerObject = object_;
        cupti_check(cuptiRangeProfilerDecodeData(&params), "cuptiRangeProfilerDecodeData");
    }

  private:
    CUpti_RangeProfiler_Object* object_ = nullptr;
};

void initialize_profiler() {
    auto params =
        make_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    cupti_check(cuptiProfilerInitialize(&params), "cuptiProfilerInitialize");
}

std::vector<std::uint8_t> run_passes(CUcontext context, const std::vector<std::uint8_t>& config,
                                     std::vector<const char*>& metrics,
                                     CUpti_ProfilerReplayMode replay,
                                     const std::function<CUresult()>& prepare,
                                     const std::function<CUresult()>& launch) {
    RangeProfilerSession session(context);
    std::vector<std::uint8_t> data = session.counter_data(metrics);
    session.configure(config, data, replay);
    bool all_submitted = false;
    for (int pass = 0; !all_submitted && pass < 64; ++pass) {
        CUresult prepared = prepare();
        if (prepared == CUDA_SUCCESS) prepared = cuCtxSynchronize();
        check_launch(prepared, "preparing a profiling pass");
        all_submitted = session.run_pass(launch);
    }
    if (!all_submitted) throw std::runtime_error("CUPTI did not submit every replay pass");
    session.decode();
    return data;
}

}  // namespace

CounterCollection collect_counters(CUcontext context, CUdevice device,
                                   const std::vector<std::string>& metrics,
                                   const std::function<CUresult()>& prepare,
                                   const std::function<CUresult()>& launch) {
    CounterCollection result;
    try {
        initialize_profiler();
        const std::vector<std::uint8_t> availability = counter_availability(context);
        HostObject host(chip_name(device), availability);
        std::vector<const char*> known;
        for (const auto& metric : metrics) {
            if (host.knows(metric))
                known.push_back(metric.c_str());
            else
                result.unavailable.push_back(metric);
        }
        if (known.empty()) return result;
        const std::vector<std::uint8_t> config = host.config_image(known, result.passes);
        // User replay, so every pass starts from prepared buffers and a cold L2. Should this CUPTI
        // refuse it, kernel replay (CUPTI restores memory itself) still gives the counters.
        std::vector<std::uint8_t> data;
        try {
            data = run_passes(context, config, known, CUPTI_UserReplay, prepare, launch);
        } catch (const CuptiError& e) {
            if (e.insufficient_rights()) throw;
            result.note = std::string("user replay failed (") + e.what() +
                          "); counters come from kernel replay";
            data = run_passes(context, config, known, CUPTI_KernelReplay, prepare, launch);
        }
        const std::vector<double> values = host.evaluate(data, known);
        for (std::size_t i = 0; i < known.size(); ++i) result.values[known[i]] = values[i];
    } catch (const CuptiError& e) {
        if (!e.insufficient_rights()) throw;
        result.permitted = false;
        result.note = std::string("no profiling rights on this GPU (") + e.what() +
                      "): evaluation continues on timing alone";
        result.values.clear();
    }
    return result;
}

}  // namespace optiml::profile
