#pragma once
// Load generators' and serving benchmarks' result files at a size where a parse
// speed means something (the shared fixtures are 1.1 MB and 58 KB), in the layouts
// the tools write (the shapes of tests/fuzz/seeds): numbers as Python's repr writes
// them (up to 17 significant digits), epoch times, one JSON line per record or result.
#include <cstdint>
#include <cstdio>
#include <string>

namespace tokenscope::bench {

// A float between lo and hi, deterministic in (i, k), at Python repr's precision.
inline std::string py_float(std::uint64_t i, std::uint64_t k, double lo, double hi) {
    const std::uint64_t h = (i * 2654435761u + k * 40503u + 12345u) % 1000003u;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", lo + (hi - lo) * static_cast<double>(h) / 1000003.0);
    return buf;
}

// SGLang bench_serving --output-details: `lines` results of `requests` each.
inline std::string sglang_jsonl(int lines, int requests, int tokens) {
    std::string out;
    for (int l = 0; l < lines; ++l) {
        std::string ttfts, itls, lens, outs, errors;
        for (int r = 0; r < requests; ++r) {
            const char* sep = r ? "," : "";
            ttfts += sep + py_float(l * requests + r, 0, 0.02, 0.3);
            itls += std::string(sep) + "[";
            for (int t = 1; t < tokens; ++t)
                itls += (t > 1 ? "," : "") + py_float(l * requests + r, t, 0.005, 0.05);
            itls += "]";
            lens += sep + std::to_string(500 + r % 100);
            outs += sep + std::to_string(tokens);
            errors += std::string(sep) + "\"\"";
        }
        out += R"({"backend":"sglang","dataset_name":"random","request_rate":)" +
               std::to_string(l + 1) + R"(,"max_concurrency":64,"completed":)" +
               std::to_string(requests) + R"(,"mean_ttft_ms":)" + py_float(l, 0, 20, 300) +
               R"(,"mean_e2e_latency_ms":)" + py_float(l, 1, 1000, 3000) + R"(,"input_lens":[)" +
               lens + R"(],"output_lens":[)" + outs + R"(],"ttfts":[)" + ttfts + R"(],"itls":[)" +
               itls + R"(],"errors":[)" + errors + "]}\n";
    }
    return out;
}

// AIPerf profile_export.jsonl: one record a request, `chunks` inter-chunk latencies.
inline std::string aiperf_jsonl(int records, int chunks) {
    std::string out;
    for (int i = 0; i < records; ++i) {
        const std::int64_t start = 1'759'813'207'532'900'363 + std::int64_t{i} * 1'000'000;
        std::string icl;
        for (int c = 0; c < chunks; ++c) icl += (c ? "," : "") + py_float(i, c, 4, 40);
        out +=
            R"({"metadata":{"session_num":)" + std::to_string(i) + R"(,"x_request_id":"req-)" +
            std::to_string(i) + R"(","conversation_id":"c","turn_index":0,"request_start_ns":)" +
            std::to_string(start) + R"(,"request_ack_ns":null,"request_end_ns":)" +
            std::to_string(start + 900'000'000) +
            R"(,"worker_id":"worker_1","record_processor_id":"record_processor_1",)"
            R"("benchmark_phase":"profiling","was_cancelled":false,"cancellation_time_ns":null},)"
            R"("metrics":{"input_sequence_length":{"value":550,"unit":"tokens"},)"
            R"("time_to_first_token":{"value":)" +
            py_float(i, 0, 20, 90) + R"(,"unit":"ms"},"output_sequence_length":{"value":)" +
            std::to_string(chunks + 1) + R"(,"unit":"tokens"},"inter_chunk_latency":{"value":[)" +
            icl + R"(],"unit":"ms"}},"error":null})" + "\n";
    }
    return out;
}

// A guidellm report: one benchmark of `requests` successful requests.
inline std::string guidellm_report(int requests) {
    std::string reqs;
    for (int i = 0; i < requests; ++i) {
        const double start = 1759813207.25 + i * 0.05;
        char timings[256];
        std::snprintf(timings, sizeof timings,
                      R"({"request_start":%.17g,"first_token_iteration":%.17g,)"
                      R"("last_token_iteration":%.17g,"request_end":%.17g,"token_iterations":128})",
                      start, start + 0.05, start + 1.5, start + 1.5);
        reqs += std::string(i ? "," : "") +
                R"({"type_":"generative_request_stats","request_id":")" + std::to_string(i) +
                R"(","info":{"status":"completed","timings":)" + timings +
                R"(},"prompt_tokens":550,"output_tokens":128})";
    }
    return R"({"metadata":{"guidellm_version":"0.5.0","version":2},"benchmarks":[)"
           R"({"type_":"generative_benchmark","config":{"strategy":{"type_":"constant","rate":4.0}},)"
           R"("requests":{"successful":[)" +
           reqs + R"(],"errored":[],"incomplete":[]}}]})";
}

// perf_analyzer's profile_export.json as GenAI-Perf reads it: `requests` requests of
// `responses` streamed chunks, each an OpenAI SSE event.
inline std::string genai_perf_export(int requests, int responses) {
    std::string reqs;
    for (int i = 0; i < requests; ++i) {
        const std::int64_t t0 = 1'759'813'207'532'900'363 + std::int64_t{i} * 10'000'000;
        std::string times, outputs;
        for (int r = 0; r < responses; ++r) {
            times += (r ? "," : "") + std::to_string(t0 + 30'000'000 + r * 7'000'000);
            outputs +=
                std::string(r ? "," : "") +
                R"({"response":"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word\"},)"
                R"(\"finish_reason\":null}],\"object\":\"chat.completion.chunk\"}\n\n"})";
        }
        reqs += std::string(i ? "," : "") + R"({"timestamp":)" + std::to_string(t0) +
                R"(,"request_inputs":{"payload":"{}"},"response_timestamps":[)" + times +
                R"(],"response_outputs":[)" + outputs + "]}";
    }
    return R"({"service_kind":"openai","endpoint":"v1/chat/completions","experiments":[)"
           R"({"experiment":{"mode":"concurrency","value":8},"requests":[)" +
           reqs + "]}]}";
}

}  // namespace tokenscope::bench
