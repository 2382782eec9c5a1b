#pragma once

// Builders of zero-initialised CUPTI activity records with the fields the decoder
// reads, as CUPTI would fill them; shared by the cupti tests.
#include <cupti.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "capture/cupti/record_layouts.h"

namespace tokenscope::capture::cupti::records {

inline KernelRecord kernel(std::uint64_t start, std::uint64_t end, std::uint32_t stream,
                           std::uint32_t correlation, const char* name, std::uint32_t device = 0,
                           std::uint32_t context = 1) {
    KernelRecord r{};
    r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    r.start = start;
    r.end = end;
    r.deviceId = device;
    r.contextId = context;
    r.streamId = stream;
    r.correlationId = correlation;
    r.name = name;
    return r;
}

inline MemcpyRecord memcpy_record(std::uint64_t start, std::uint64_t end, std::uint8_t copy_kind,
                                  std::uint64_t bytes, std::uint32_t stream,
                                  std::uint32_t correlation) {
    MemcpyRecord r{};
    r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    r.copyKind = copy_kind;
    r.bytes = bytes;
    r.start = start;
    r.end = end;
    r.contextId = 1;
    r.streamId = stream;
    r.correlationId = correlation;
    return r;
}

inline ApiRecord api(CUpti_ActivityKind kind, std::uint32_t cbid, std::uint64_t start,
                     std::uint64_t end, std::uint32_t thread, std::uint32_t correlation,
                     std::uint32_t process = 4242) {
    ApiRecord r{};
    r.kind = kind;
    r.cbid = cbid;
    r.start = start;
    r.end = end;
    r.processId = process;
    r.threadId = thread;
    r.correlationId = correlation;
    return r;
}

inline MarkerRecord marker(std::uint32_t flags, std::uint64_t timestamp, std::uint32_t id,
                           const char* name, std::uint32_t thread, std::uint32_t process = 4242) {
    MarkerRecord r{};
    r.kind = CUPTI_ACTIVITY_KIND_MARKER;
    r.flags = static_cast<CUpti_ActivityFlag>(flags);
    r.timestamp = timestamp;
    r.id = id;
    r.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    r.objectId.pt.processId = process;
    r.objectId.pt.threadId = thread;
    r.name = name;
    return r;
}

// The cuda runner's tag of a plan entry on one CUDA call (kPlanEntryTagKind by default).
inline ExternalCorrelationRecord external(std::uint32_t correlation, std::uint64_t tag,
                                          CUpti_ExternalCorrelationKind kind = kPlanEntryTagKind) {
    ExternalCorrelationRecord r{};
    r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    r.externalKind = kind;
    r.externalId = tag;
    r.correlationId = correlation;
    return r;
}

template <typename Record>
const CUpti_Activity* as_record(const Record& r) {
    return reinterpret_cast<const CUpti_Activity*>(&r);
}

// Packs records back to back, 8-byte aligned, as CUPTI lays out its buffers.
class BufferBuilder {
  public:
    template <typename Record>
    void add(const Record& r) {
        static_assert(sizeof(Record) % 8 == 0);
        const std::size_t at = words_.size();
        words_.resize(at + sizeof(Record) / 8);
        std::memcpy(words_.data() + at, &r, sizeof(Record));
    }
    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(words_.data()); }
    std::size_t size() const { return words_.size() * 8; }

  private:
    std::vector<std::uint64_t> words_;  // 8-byte words keep every record aligned
};

}  // namespace tokenscope::capture::cupti::records
