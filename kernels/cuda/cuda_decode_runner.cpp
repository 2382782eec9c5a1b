#include "cuda_decode_runner.h"

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <time.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "beam_history.h"
#include "counter_draw.h"
#include "cuda_check.h"
#include "decode_schedule.h"
#include "device_model.h"
#include "device_workspace.h"
#include "matmul_engine.h"
#include "pass_launcher.h"
#include "pinned_buffer.h"

namespace tokenscope::kernels::cuda {
namespace {

std::int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// RAII for the two streams and two events of a runner.
struct StreamSet {
    cudaStream_t compute = nullptr, copy = nullptr;
    cudaEvent_t uploaded = nullptr, computed = nullptr;
    StreamSet() {
        check_cuda(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking), "compute stream");
        check_cuda(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking), "copy stream");
        check_cuda(cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming), "event");
        check_cuda(cudaEventCreateWithFlags(&computed, cudaEventDisableTiming), "event");
    }
    StreamSet(const StreamSet&) = delete;
    StreamSet& operator=(const StreamSet&) = delete;
    ~StreamSet() {
        cudaEventDestroy(uploaded);
        cudaEventDestroy(computed);
        cudaStreamDestroy(copy);
        cudaStreamDestroy(compute);
    }
};

// Decode iterations as CUDA graphs. Greedy and top-k decode are captured once per
// slot (the parity of the iteration: the sampler's output buffer alternates), with the
// kernels reading the context length and the iteration from device memory, and then
// replayed as they are: no host work per step but the launch. Other strategies change
// shape from step to step (beam search swaps caches, speculative decoding verifies
// several rows): each iteration is captured anew and updates one executable graph in
// place (cudaGraphExecUpdate), or replaces it when its topology changed.
class GraphReplay {
  public:
    GraphReplay() = default;
    GraphReplay(const GraphReplay&) = delete;
    GraphReplay& operator=(const GraphReplay&) = delete;
    ~GraphReplay() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
        for (auto* e : kept_)
            if (e != nullptr) cudaGraphExecDestroy(e);
    }

    // Launches the graph kept under `slot` (0 or 1), capturing it first with `enqueue`
    // when there is none; slot < 0: captures `enqueue` anew into the shared executable
    // graph. Returns the kernels per plan entry that `enqueue` reported at capture.
    template <typename Enqueue>
    std::vector<std::int32_t> launch(cudaStream_t stream, int slot, Enqueue&& enqueue) {
        if (slot >= 0 && kept_[slot] != nullptr) {
            check_cuda(cudaGraphLaunch(kept_[slot], stream), "cudaGraphLaunch");
            ++launches_;
            return kept_counts_[slot];
        }
        std::vector<std::int32_t> counts;
        cudaGraph_t graph = capture(stream, [&] { counts = enqueue(); });
        cudaGraphExec_t& exec = slot >= 0 ? kept_[slot] : exec_;
        if (exec != nullptr) {
            cudaGraphExecUpdateResultInfo info{};
            if (cudaGraphExecUpdate(exec, graph, &info) != cudaSuccess) {
                cudaGetLastError();  // an update refused is not an error: instantiate anew
                cudaGraphExecDestroy(exec);
                exec = nullptr;
            }
        }
        if (exec == nullptr) {
            const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
            if (made != cudaSuccess) cudaGraphDestroy(graph);
            check_cuda(made, "cudaGraphInstantiate");
            ++instantiations_;
        }
        cudaGraphDestroy(graph);
        if (slot >= 0) kept_counts_[slot] = counts;
        check_cuda(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
        ++launches_;
        return counts;
    }
    // Counted from here on (per run()).
    void restart_counts() { launches_ = instantiations_ = 0; }
    std::int32_t launches() const { return launches_; }
    std::int32_t instantiations() const { return instantiations_; }

  private:
    template <typename Enqueue>
    static cudaGraph_t capture(cudaStream_t stream, Enqueue&& enqueue) {
        check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
                   "cudaStreamBeginCapture");
        cudaGraph_t graph = nullptr;
        try {
            enqueue();
        } catch (...) {
            cudaStreamEndCapture(stream, &graph);  // leave the stream usable
            if (graph != nullptr) cudaGraphDestroy(graph);
            throw;
        }
        check_cuda(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
        return graph;
    }

    cudaGraphExec_t exec_ = nullptr;
    cudaGraphExec_t kept_[2] = {nullptr, nullptr};
    std::vector<std::int32_t> kept_counts_[2];
    std::int32_t launches_ = 0;
    std::int32_t instantiations_ = 0;
};

}  // namespace

struct CudaDecodeRunner::Impl {
    Impl(const ModelShape& shape, const DecodeConfig& config, int device_index)
        : schedule(shape, config), device(select(device_index)) {
        model = std::make_unique<DeviceModel>(shape, config.seed, schedule.cache_capacity(),
                                              streams.compute);
        ws = std::make_unique<DeviceWorkspace>(schedule);
        matmuls = std::make_unique<MatmulEngine>();
        launcher = std::make_unique<PassLauncher>(schedule, *model, *ws, *matmuls, streams.compute);
        // Every product's algorithm chosen, and its kernels counted, before any tracer or
        // graph capture sees a call.
        launcher->prepare(schedule.prefill());
        if (config.new_tokens > 1) launcher->prepare(schedule.decode(1, config.prompt_len, 1));
        const std::size_t seqs = static_cast<std::size_t>(config.sequences());
        host_ids = std::make_unique<PinnedBuffer>(
            std::max(seqs * static_cast<std::size_t>(config.prompt_len) * 4,
                     ws->step_state_offset() + DeviceWorkspace::kStepStateBytes),
            "token ids");
        host_out = std::make_unique<PinnedBuffer>(
            seqs * static_cast<std::size_t>(ws->id_slots()) * 4 + seqs * 12, "sampled ids");
        prompts = default_prompts(shape, config);
    }

    static int select(int device_index) {
        check_cuda(cudaSetDevice(device_index), "cudaSetDevice");
        return device_index;
    }

    DecodeResult run(const RunnerHooks& hooks);
    IterationTiming execute(const ScheduledIteration& it, const RunnerHooks& hooks);
    void emit(const ScheduledIteration& it, IterationTiming& t, DecodeResult& r,
              const RunnerHooks& hooks);
    void upload_prompts();
    void fetch_final_logits(const ScheduledIteration& last, std::int32_t emitted, DecodeResult& r);

    DecodeSchedule schedule;
    int device;
    StreamSet streams;
    std::unique_ptr<DeviceModel> model;
    std::unique_ptr<DeviceWorkspace> ws;
    std::unique_ptr<MatmulEngine> matmuls;
    std::unique_ptr<PassLauncher> launcher;
    std::unique_ptr<PinnedBuffer> host_ids, host_out;
    std::vector<std::vector<std::int32_t>> prompts;
    std::unique_ptr<BeamHistory> beams;
    std::int64_t generated = 0;  // tokens per request so far
    bool cuda_graphs = false;
    std::unique_ptr<GraphReplay> graphs;  // with cuda_graphs; kept graphs outlive a run()

    // Greedy and top-k decode replay one graph per parity (GraphReplay).
    bool replays_kept_graphs() const {
        const Strategy st = schedule.config().strategy;
        return st == Strategy::Greedy || st == Strategy::TopK;
    }
};

void CudaDecodeRunner::Impl::upload_prompts() {
    const DecodeConfig& c = schedule.config();
    auto* dst = host_ids->as<std::int32_t>();
    const std::int64_t per_request = c.sequences() / c.batch;  // beams share their prompt
    for (std::int64_t s = 0; s < c.sequences(); ++s)
        std::memcpy(dst + s * c.prompt_len,
                    prompts[static_cast<std::size_t>(s / per_request)].data(),
                    static_cast<std::size_t>(c.prompt_len) * 4);
}

DecodeResult CudaDecodeRunner::Impl::run(const RunnerHooks& hooks) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    const DecodeConfig& c = schedule.config();
    DecodeResult r;
    r.tokens.resize(static_cast<std::size_t>(c.batch));
    r.emission_ns.resize(static_cast<std::size_t>(c.batch));
    if (c.strategy == Strategy::Beam) beams = std::make_unique<BeamHistory>(c.batch, c.beams);
    generated = 0;
    if (!cuda_graphs) graphs.reset();
    if (cuda_graphs && !graphs) graphs = std::make_unique<GraphReplay>();
    if (graphs) graphs->restart_counts();
    std::vector<nvtxRangeId_t> request_ranges;
    for (std::int64_t q = 0; q < c.batch; ++q)
        request_ranges.push_back(nvtxRangeStartA(("request " + std::to_string(q)).c_str()));
    r.run_begin_ns = now_ns();

    upload_prompts();
    ScheduledIteration it = schedule.prefill();
    IterationTiming t = execute(it, hooks);
    emit(it, t, r, hooks);
    while (generated < c.new_tokens) {
        it = schedule.decode(static_cast<std::int32_t>(r.iterations.size()),
                             c.prompt_len + generated - 1, generated);
        t = execute(it, hooks);
        emit(it, t, r, hooks);
    }
    r.run_end_ns = now_ns();
    for (auto id : request_ranges) nvtxRangeEnd(id);
    if (beams)
        for (std::int64_t q = 0; q < c.batch; ++q)
            r.tokens[static_cast<std::size_t>(q)] = beams->tokens(q);
    fetch_final_logits(it, r.iterations.back().tokens_emitted, r);
    if (graphs) {
        r.graph_launches = graphs->launches();
        r.graph_instantiations = graphs->instantiations();
    }
    return r;
}

IterationTiming CudaDecodeRunner::Impl::execute(const ScheduledIteration& it,
                                                const RunnerHooks& hooks) {
    IterationTiming t;
    t.index = it.plan.index;
    t.prefill = it.plan.prefill;
    t.begin_ns = now_ns();
    if (hooks.iteration_begin) hooks.iteration_begin(it.plan, t.begin_ns);
    const std::string name = it.plan.prefill ? "prefill" : "decode step " + std::to_string(t.index);
    nvtxRangePushA(name.c_str());
    void* ids_dst = it.plan.prefill ? ws->prompt_ids.get() : ws->ids.get();
    const bool kept = graphs && !it.plan.prefill && replays_kept_graphs();
    std::size_t upload = it.plan.h2d_bytes;
    if (kept) {
        // The replayed graph's kernels read the step from behind the ids: one upload.
        auto* state =
            reinterpret_cast<std::int32_t*>(host_ids->as<char>() + ws->step_state_offset());
        state[0] = static_cast<std::int32_t>(it.plan.cached);
        state[1] = it.plan.index;
        upload = ws->step_state_offset() + 2 * sizeof(std::int32_t);
    }
    check_cuda(cudaMemcpyAsync(ids_dst, host_ids->as<void>(), upload, cudaMemcpyHostToDevice,
                               streams.copy),
               "upload token ids");
    check_cuda(cudaEventRecord(streams.uploaded, streams.copy), "cudaEventRecord");
    check_cuda(cudaStreamWaitEvent(streams.compute, streams.uploaded, 0), "cudaStreamWaitEvent");
    if (graphs && !it.plan.prefill) {
        PassLauncher::Options o;
        o.checked = false;
        o.device_step = kept;
        t.kernels_per_entry = graphs->launch(streams.compute, kept ? it.plan.index % 2 : -1,
                                             [&] { return launcher->launch(it, o); });
        t.graph = true;
    } else {
        PassLauncher::Options o;
        o.hooks = {&hooks.entry_begin, &hooks.entry_end};
        t.kernels_per_entry = launcher->launch(it, o);
    }
    check_cuda(cudaEventRecord(streams.computed, streams.compute), "cudaEventRecord");
    check_cuda(cudaStreamWaitEvent(streams.copy, streams.computed, 0), "cudaStreamWaitEvent");
    check_cuda(cudaMemcpyAsync(host_out->as<void>(), ws->sampler_out(it.plan.index),
                               it.plan.d2h_bytes, cudaMemcpyDeviceToHost, streams.copy),
               "download sampled ids");
    check_cuda(cudaStreamSynchronize(streams.copy), name.c_str());
    t.end_ns = now_ns();  // the sampled ids are on the host: the tokens are emitted
    nvtxRangePop();
    check_cuda(cudaGetLastError(), name.c_str());
    return t;
}

void CudaDecodeRunner::Impl::emit(const ScheduledIteration& it, IterationTiming& t, DecodeResult& r,
                                  const RunnerHooks& hooks) {
    const DecodeConfig& c = schedule.config();
    const auto seqs = static_cast<std::size_t>(c.sequences());
    const auto* out = host_out->as<std::int32_t>();
    auto* next = host_ids->as<std::int32_t>();  // slot 0 of the next upload
    std::int32_t n = 1;
    if (c.strategy == Strategy::Speculative && !it.plan.prefill) {
        const auto rows = static_cast<std::size_t>(c.gamma + 1);
        t.accepted = DecodeSchedule::lockstep_accepted({out + seqs * rows, seqs});
        n = DecodeSchedule::tokens_to_emit(t.accepted, c.new_tokens - generated);
        for (std::size_t s = 0; s < seqs; ++s) {
            for (std::int32_t i = 0; i < n; ++i) r.tokens[s].push_back(out[s * rows + i]);
            next[s] = out[s * rows + static_cast<std::size_t>(n - 1)];
        }
    } else if (beams) {
        beams->advance({out, seqs}, {out + seqs, seqs});
        for (std::size_t s = 0; s < seqs; ++s) next[s] = out[s];
    } else {
        for (std::size_t s = 0; s < seqs; ++s) {
            r.tokens[s].push_back(out[s]);
            next[s] = out[s];
        }
    }
    for (auto& times : r.emission_ns)
        times.insert(times.end(), static_cast<std::size_t>(n), t.end_ns);
    generated += n;
    t.tokens_emitted = n;
    r.iterations.push_back(t);
    if (hooks.iteration_end) {
        IterationPlan plan = it.plan;
        plan.tokens_emitted = n;
        plan.accepted = t.accepted;
        hooks.iteration_end(plan, t);
    }
}

void CudaDecodeRunner::Impl::fetch_final_logits(const ScheduledIteration& last,
                                                std::int32_t emitted, DecodeResult& r) {
    const ModelShape& shape = schedule.shape();
    const std::int64_t seqs = schedule.config().sequences();
    std::int64_t rows = 1;  // logit rows per sequence of the pass that sampled
    for (const auto& p : last.passes)
        if (!p.draft) rows = p.logit_rows;
    const auto vocab = static_cast<std::size_t>(shape.vocab);
    std::vector<float> all(static_cast<std::size_t>(seqs * rows) * vocab);
    check_cuda(cudaMemcpyAsync(all.data(), ws->logits.get(), all.size() * sizeof(float),
                               cudaMemcpyDeviceToHost, streams.copy),
               "download logits");
    check_cuda(cudaStreamSynchronize(streams.copy), "download logits");
    // Speculative: the row of each sequence's last emitted token is row emitted - 1.
    const std::int64_t row = std::min<std::int64_t>(emitted, rows) - 1;
    r.final_logit_rows = seqs;
    r.final_logits.resize(static_cast<std::size_t>(seqs) * vocab);
    for (std::int64_t s = 0; s < seqs; ++s)
        std::memcpy(r.final_logits.data() + static_cast<std::size_t>(s) * vocab,
                    all.data() + static_cast<std::size_t>(s * rows + row) * vocab,
                    vocab * sizeof(float));
}

CudaDecodeRunner::CudaDecodeRunner(const ModelShape& shape, const DecodeConfig& config, int device)
    : impl_(std::make_unique<Impl>(shape, config, device)) {}

CudaDecodeRunner::~CudaDecodeRunner() = default;

void CudaDecodeRunner::set_prompts(std::vector<std::vector<std::int32_t>> prompts) {
    const DecodeConfig& c = impl_->schedule.config();
    const std::int64_t vocab = impl_->schedule.shape().vocab;
    if (static_cast<std::int64_t>(prompts.size()) != c.batch)
        throw std::invalid_argument("prompts: expected " + std::to_string(c.batch) + " rows, got " +
                                    std::to_string(prompts.size()));
    for (const auto& p : prompts) {
        if (static_cast<std::int64_t>(p.size()) != c.prompt_len)
            throw std::invalid_argument("prompts: a row has " + std::to_string(p.size()) +
                                        " ids, expected prompt_len " +
                                        std::to_string(c.prompt_len));
        for (auto id : p)
            if (id < 0 || id >= vocab)
                throw std::invalid_argument("prompts: id " + std::to_string(id) +
                                            " outside the vocabulary");
    }
    impl_->prompts = std::move(prompts);
}

void CudaDecodeRunner::set_cuda_graphs(bool on) {
    impl_->cuda_graphs = on;
}

DecodeResult CudaDecodeRunner::run(const RunnerHooks& hooks) {
    return impl_->run(hooks);
}

std::string CudaDecodeRunner::kernels_description() const {
    return "projections and LM head: " + impl_->matmuls->description();
}

std::vector<std::vector<std::int32_t>> CudaDecodeRunner::default_prompts(
    const ModelShape& shape, const DecodeConfig& config) {
    std::vector<std::vector<std::int32_t>> prompts(static_cast<std::size_t>(config.batch));
    const auto vocab = static_cast<std::uint64_t>(shape.vocab);
    for (std::int64_t r = 0; r < config.batch; ++r)
        for (std::int64_t i = 0; i < config.prompt_len; ++i)
            prompts[static_cast<std::size_t>(r)].push_back(static_cast<std::int32_t>(
                splitmix_draw(config.seed ^ kPromptStream,
                              static_cast<std::uint64_t>(r * config.prompt_len + i)) %
                vocab));
    return prompts;
}

int CudaDecodeRunner::device_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free error so later calls start clean
        return 0;
    }
    return count;
}

std::string CudaDecodeRunner::device_name(int device) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    return prop.name;
}

}  // namespace tokenscope::kernels::cuda
