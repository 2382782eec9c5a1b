// Drain rate of the CUPTI writer path: synthetic activity buffers of mixed records
// (runtime API calls, kernels, copies) go through the same queue, writer thread,
// RecordDecoder and RunWriter as a capture, into a real .tokenscope file in /tmp.
// A producer thread plays CUPTI: it fills pool buffers and queues them.
//
//   cupti_drain_bench [N = 5000000]
//
// Prints the median records/second of 5 runs (target >= 2,000,000/s) and, for
// scale, the decoder alone into memory.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "capture/cupti/buffer_pool.h"
#include "capture/cupti/buffer_queue.h"
#include "capture/cupti/record_decoder.h"
#include "capture/cupti/record_drain.h"
#include "capture/memory_run_writer.h"
#include "store/store_writer.h"

namespace {

using namespace tokenscope;
using namespace tokenscope::capture::cupti;
using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 5;

const char* const kKernelNames[] = {"_Z11rmsnorm_fwdPK6__halfS1_PS_if",
                                    "_Z9gemv_fp16PK6__halfS1_PS_ii",
                                    "_Z14rope_apply_fwdPK6__halfPS_S2_PKfS4_i",
                                    "_Z16flash_decode_kerPK6__halfS1_S1_PS_i",
                                    "_Z11swiglu_fwdPK6__halfPS_i",
                                    "_Z13embedding_fwdPKiPK6__halfPS2_i",
                                    "_Z10logits_fwdPK6__halfS1_Pfi",
                                    "_Z13greedy_samplePKfPii"};

// One "launch" of the decode loop as CUPTI reports it: the API call, its kernel and
// every tenth time a copy. Returns the bytes written; 0 when it does not fit.
std::size_t write_record(std::uint8_t* out, std::size_t room, std::uint64_t i) {
    const std::uint64_t t = 1'800'000'000'000'000'000ull + i * 4000;
    const auto corr = static_cast<std::uint32_t>(i / 3 + 1);
    switch (i % 3) {
        case 0: {
            ApiRecord r{};
            if (room < sizeof r) return 0;
            r.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
            r.cbid = 211;  // cudaLaunchKernel
            r.start = t;
            r.end = t + 2500;
            r.processId = 100;
            r.threadId = 101;
            r.correlationId = corr;
            std::memcpy(out, &r, sizeof r);
            return sizeof r;
        }
        case 1: {
            KernelRecord r{};
            if (room < sizeof r) return 0;
            r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
            r.start = t + 1000;
            r.end = t + 3900;
            r.contextId = 1;
            r.streamId = corr % 4 == 0 ? 13 : 7;
            r.correlationId = corr;
            r.name = kKernelNames[corr % 8];
            std::memcpy(out, &r, sizeof r);
            return sizeof r;
        }
        default: {
            MemcpyRecord r{};
            if (room < sizeof r) return 0;
            r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
            r.copyKind =
                corr % 2 == 0 ? CUPTI_ACTIVITY_MEMCPY_KIND_HTOD : CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
            r.bytes = 4096;
            r.start = t + 100;
            r.end = t + 3000;
            r.contextId = 1;
            r.streamId = 8;
            r.correlationId = corr;
            std::memcpy(out, &r, sizeof r);
            return sizeof r;
        }
    }
}

// Plays CUPTI: fills buffers from the pool and queues them, waiting when the pool
// is empty (CUPTI would drop records there; the bench wants all of them).
void produce(BufferPool& pool, BufferQueue& queue, std::uint64_t n) {
    std::uint64_t i = 0;
    while (i < n) {
        std::uint8_t* buffer = pool.acquire();
        if (buffer == nullptr) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            continue;
        }
        std::size_t used = 0;
        while (i < n) {
            const std::size_t w = write_record(buffer + used, pool.buffer_bytes() - used, i);
            if (w == 0) break;
            used += w;
            ++i;
        }
        queue.push({buffer, used});
    }
}

double drain_once(store::RunWriter& writer, std::uint64_t n, std::int64_t& records) {
    BufferPool pool(BufferPool::kDefaultBufferBytes, 8, 8);
    BufferQueue queue;
    RecordDecoder decoder(writer, DecoderOptions{"", false, 100});
    RecordDrain drain(queue, pool, decoder, writer, {}, std::chrono::milliseconds(10));
    const auto t0 = Clock::now();
    drain.start();
    produce(pool, queue, n);
    drain.stop();
    decoder.finish();
    writer.finish();
    records = drain.records();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5'000'000;
    std::vector<double> store_rates, memory_rates;
    for (int run = 0; run < kRepeats; ++run) {
        const auto path = std::filesystem::temp_directory_path() /
                          ("cupti_drain_bench_" + std::to_string(getpid()) + ".tokenscope");
        std::filesystem::remove(path);
        std::int64_t records = 0;
        double seconds = 0;
        {
            store::StoreWriter store(path.string());
            auto writer = store.begin_run(trace::RunInfo{});
            seconds = drain_once(*writer, n, records);
        }
        if (records != static_cast<std::int64_t>(n)) {
            std::fprintf(stderr, "drained %lld of %llu records\n", static_cast<long long>(records),
                         static_cast<unsigned long long>(n));
            return 2;
        }
        store_rates.push_back(static_cast<double>(n) / seconds);
        std::printf("run %d: %llu records into %s in %.3f s = %.0f records/s (file %.1f MiB)\n",
                    run + 1, static_cast<unsigned long long>(n), path.c_str(), seconds,
                    store_rates.back(),
                    static_cast<double>(std::filesystem::file_size(path)) / (1 << 20));
        std::filesystem::remove(path);
        capture::MemoryRunWriter memory;
        memory_rates.push_back(static_cast<double>(n) / drain_once(memory, n, records));
    }
    const double rate = median(store_rates);
    std::printf("median drain rate into the store: %.0f records/s (target 2000000: %s)\n", rate,
                rate >= 2e6 ? "met" : "NOT met");
    std::printf("median drain rate into a MemoryRunWriter (growing vectors): %.0f records/s\n",
                median(memory_rates));
    return 0;
}
