#include "sweep_store.h"

#include "connection.h"
#include "file_probe.h"
#include "schema.h"
#include "statement.h"
#include "store_error.h"

namespace tokenscope::store {

using detail::Statement;

SweepStore::SweepStore(const std::string& path, bool read_only) : read_only_(read_only) {
    detail::probe_file(path, /*allow_missing=*/!read_only);
    // Read-only, only what sweeps(), points(), requests() and workload_json() read is
    // checked: a sweep's token steps are most of its file and no report reads them.
    conn_ = std::make_unique<detail::Connection>(
        path, read_only, std::vector<std::string>{"sweep", "sweep_point", "run", "request"});
    const int version = detail::check_identity(*conn_);
    if (!read_only) {
        conn_->exec("PRAGMA journal_mode = WAL");
        if (version == 0)
            detail::create_schema(*conn_);
        else if (version < kSchemaVersion)
            detail::migrate(*conn_);
    }
    has_tables_ = version != 0 && detail::has_sweep_tables(*conn_);
    if (!read_only) has_tables_ = true;
}

SweepStore::~SweepStore() {
    // As StoreWriter does: a finished file goes back to one self-contained file. Fails
    // harmlessly while another connection still writes.
    if (!read_only_) conn_->try_exec("PRAGMA journal_mode = DELETE");
}

std::int64_t SweepStore::add_sweep(const SweepInfo& info) {
    std::int64_t id = 0;
    conn_->write_transaction([&] {
        Statement st(*conn_, "INSERT INTO sweep (name, created_ns, spec_json) VALUES (?1, ?2, ?3)");
        st.bind_text(1, info.name).bind_int(2, info.created_ns).bind_text(3, info.spec_json);
        st.run();
        id = conn_->last_insert_rowid();
    });
    return id;
}

void SweepStore::add_point(std::int64_t sweep_id, const SweepPoint& p) {
    conn_->write_transaction([&] {
        Statement st(*conn_,
                     "INSERT INTO sweep_point (sweep_id, point, repeat, run_id, params_json) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)");
        st.bind_int(1, sweep_id).bind_int(2, p.point).bind_int(3, p.repeat);
        st.bind_int(4, p.run_id).bind_text(5, p.params_json);
        st.run();
    });
}

std::vector<SweepInfo> SweepStore::sweeps() const {
    std::vector<SweepInfo> out;
    if (!has_tables_) return out;
    Statement st(*conn_, "SELECT id, name, created_ns, spec_json FROM sweep ORDER BY id");
    while (st.step())
        out.push_back({st.int64(0), std::string(st.text(1)), st.int64(2), std::string(st.text(3))});
    return out;
}

std::vector<SweepPoint> SweepStore::points(std::int64_t sweep_id) const {
    std::vector<SweepPoint> out;
    if (!has_tables_) return out;
    // A run killed before it finished stays incomplete: its point is not done.
    Statement st(*conn_,
                 "SELECT p.point, p.repeat, p.run_id, p.params_json FROM sweep_point p "
                 "JOIN run r ON r.id = p.run_id WHERE p.sweep_id = ?1 AND r.complete = 1 "
                 "ORDER BY p.point, p.repeat");
    st.bind_int(1, sweep_id);
    while (st.step()) {
        out.push_back({static_cast<std::int32_t>(st.int64(0)),
                       static_cast<std::int32_t>(st.int64(1)), st.int64(2),
                       std::string(st.text(3))});
    }
    return out;
}

std::vector<trace::Request> SweepStore::requests(std::int64_t run_id) const {
    std::vector<trace::Request> out;
    Statement st(*conn_,
                 "SELECT id, arrival_ns, first_token_ns, done_ns, input_len, output_len, failed "
                 "FROM request WHERE run_id = ?1 ORDER BY rowid");
    st.bind_int(1, run_id);
    while (st.step()) {
        trace::Request r;
        r.id = st.int64(0);
        r.arrival_ns = st.int64(1);
        r.first_token_ns = st.int64(2);
        r.done_ns = st.int64(3);
        r.input_len = static_cast<std::int32_t>(st.int64(4));
        r.output_len = static_cast<std::int32_t>(st.int64(5));
        r.failed = st.int64(6) != 0;
        out.push_back(r);
    }
    return out;
}

std::string SweepStore::workload_json(std::int64_t run_id) const {
    Statement st(*conn_, "SELECT workload_json FROM run WHERE id = ?1");
    st.bind_int(1, run_id);
    return st.step() ? std::string(st.text(0)) : std::string();
}

}  // namespace tokenscope::store
