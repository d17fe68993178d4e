#include "report.hpp"

#include <cmath>
#include <fstream>

namespace bench {
namespace {

std::string fmt(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string fmt_time(double ns) {
    if (ns < 1e3) return fmt("%.1f ns", ns);
    if (ns < 1e6) return fmt("%.2f us", ns / 1e3);
    return fmt("%.2f ms", ns / 1e6);
}

std::string fmt_gbps(double bytes, double ns) { return ns > 0 ? fmt("%.1f", bytes / ns) : "-"; }

std::string fmt_ratio(double ratio) { return std::isnan(ratio) ? "-" : fmt("%.2fx", ratio); }

std::string cap_label(const std::string& cap) { return cap.empty() ? "bcast" : "bcast[" + cap + "]"; }

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
    }
    return out + "\"";
}

std::string json_stats(const Stats& s) {
    return "{\"min_ns\":" + fmt("%.3f", s.min_ns) + ",\"median_ns\":" + fmt("%.3f", s.median_ns) +
           ",\"samples\":" + std::to_string(s.samples) + "}";
}

std::string json_number(double x) { return std::isnan(x) ? "null" : fmt("%.4f", x); }

}  // namespace

void print_header(std::FILE* out, const RunInfo& run) {
    const MachineInfo& m = run.machine;
    std::string threads;
    for (int t : run.threads) threads += (threads.empty() ? "" : ",") + std::to_string(t);
    std::fprintf(out, "# bcast benchmark%s: ADD, threads %s\n\n", run.smoke ? " (smoke: tiny sizes)" : "",
                 threads.c_str());
    std::fprintf(out, "- bcast %s; kernel set without a cap: `%s`; BCAST_MAX_ISA=%s; caps measured:",
                 run.bcast_version.c_str(), run.default_isa.c_str(),
                 run.env_cap.empty() ? "(unset)" : run.env_cap.c_str());
    for (const std::string& cap : run.caps) std::fprintf(out, " `%s`", cap.empty() ? "(none)" : cap.c_str());
    std::fprintf(out, "\n- tuning in force: %s (%s)", run.tuning_source.c_str(), run.tuning_choices.c_str());
    std::fprintf(out, "\n- CPU: %s, %u CPUs; L1d %s, L2 %s, LLC %s; transparent huge pages: %s\n",
                 m.cpu_model.c_str(), m.cpus, format_bytes(static_cast<double>(m.l1d_bytes)).c_str(),
                 format_bytes(static_cast<double>(m.l2_bytes)).c_str(),
                 format_bytes(static_cast<double>(m.llc_bytes)).c_str(),
                 m.transparent_huge_pages.c_str());
    std::fprintf(out, "- %s; load average %s; compiler %s; reference loops run their `%s` clone\n",
                 m.date_utc.c_str(), m.load_average.c_str(), m.compiler.c_str(),
                 run.reference_isa.c_str());
    std::fprintf(out,
                 "- Times per execute. GB/s = (each input once + the output once) / min time. "
                 "Reference = a plain loop moving the same bytes, with normal or with "
                 "non-temporal (nt) stores, per round whichever is faster; the column names "
                 "the faster by min. `x ref` = median over rounds of bcast time / the same "
                 "round's reference time (1.00x = at the roofline). "
                 "`in` = smallest cache level holding all operands (`>LLC`: DRAM).\n");
    std::fprintf(out, "- `offset` = bytes past a 64-byte boundary where a, b and the output y start "
                      "(one number: all three); bcast and the reference run on the same buffers. "
                      "Layouts run:");
    for (const OffsetLayout& layout : run.layouts) std::fprintf(out, " `%s`", offset_label(layout).c_str());
    std::fprintf(out, "\n- `threads` = bcast on a bcast_pool of that many threads (`tasks`: what it "
                      "splits the op into, bcast_op_task_count); the reference is the same loop run "
                      "by `tasks` threads, each on its share of the output, so `x ref` compares with "
                      "that many threads' roofline. `speed-up` = bcast's plain execute time / its "
                      "pool execute time, both timed in the same rounds (median of the per-round "
                      "ratios).\n\n");
}

void print_table_start(std::FILE* out, const RunInfo& run) {
    std::string head = "| # | case | dtype | offset | threads | tasks | in | moved | reference | ref min | ref GB/s |";
    std::string rule = "|---|---|---|---|---:|---:|---|---:|---|---:|---:|";
    for (const std::string& cap : run.caps) {
        const std::string name = cap_label(cap);
        head += " " + name + " kernel | min | median | GB/s | x ref |";
        rule += "---|---:|---:|---:|---:|";
    }
    if (run.caps.size() >= 2) {
        head += " " + cap_label(run.caps[1]) + " / " + cap_label(run.caps[0]) + " |";
        rule += "---:|";
    }
    if (run.threads.size() >= 2) {
        head += " speed-up |";
        rule += "---:|";
    }
    std::fprintf(out, "%s\n%s\n", head.c_str(), rule.c_str());
    std::fflush(out);
}

void print_case_row(std::FILE* out, std::size_t number, const CaseResult& r, bool speedup_column) {
    std::fprintf(out, "| %zu | %s | %s | %s | %d | %d | %s | %s |", number, r.c.label.c_str(),
                 dtype_name(r.c.dtype), offset_label(r.layout).c_str(), r.threads, r.tasks,
                 r.where, format_bytes(r.bytes).c_str());
    if (!r.error.empty()) {
        std::fprintf(out, " ERROR: %s |\n", r.error.c_str());
        std::fflush(out);
        return;
    }
    std::fprintf(out, " %s, %s stores | %s | %s |", reference_name(r.c.reference),
                 r.streaming_faster ? "nt" : "normal", fmt_time(r.reference.min_ns).c_str(),
                 fmt_gbps(r.bytes, r.reference.min_ns).c_str());
    for (const IsaResult& b : r.bcast) {
        std::fprintf(out, " %s (%s) | %s | %s | %s | %s |", b.kernel.c_str(), b.isa.c_str(),
                     fmt_time(b.stats.min_ns).c_str(), fmt_time(b.stats.median_ns).c_str(),
                     fmt_gbps(r.bytes, b.stats.min_ns).c_str(), fmt_ratio(b.over_reference).c_str());
    }
    if (r.bcast.size() >= 2) std::fprintf(out, " %s |", fmt_ratio(r.second_over_first).c_str());
    if (speedup_column) std::fprintf(out, " %s |", fmt_ratio(r.speedup).c_str());
    std::fprintf(out, "\n");
    std::fflush(out);
}

void print_overheads(std::FILE* out, const std::vector<OverheadResult>& overheads) {
    std::fprintf(out, "\n## Fixed costs through the C API\n\n");
    std::fprintf(out, "| what | cap | kernel set | min | median | batches | target | min / median within target |\n");
    std::fprintf(out, "|---|---|---|---:|---:|---:|---:|---|\n");
    for (const OverheadResult& o : overheads) {
        if (!o.error.empty()) {
            std::fprintf(out, "| %s | %s | ERROR: %s |\n", o.what.c_str(), o.cap.c_str(), o.error.c_str());
            continue;
        }
        std::fprintf(out, "| %s | %s | %s | %s | %s | %zu | %s | %s / %s |\n", o.what.c_str(),
                     o.cap.empty() ? "(none)" : o.cap.c_str(), o.isa.c_str(),
                     fmt_time(o.stats.min_ns).c_str(), fmt_time(o.stats.median_ns).c_str(),
                     o.stats.samples, fmt_time(o.target_ns).c_str(),
                     o.stats.min_ns < o.target_ns ? "yes" : "no",
                     o.stats.median_ns < o.target_ns ? "yes" : "no");
    }
    std::fflush(out);
}

bool write_json(const std::string& path, const RunInfo& run, const std::vector<CaseResult>& cases,
                const std::vector<OverheadResult>& overheads) {
    std::ofstream f(path);
    const MachineInfo& m = run.machine;
    f << "{\"bcast_version\":" << json_string(run.bcast_version)
      << ",\"default_isa\":" << json_string(run.default_isa)
      << ",\"env_max_isa\":" << json_string(run.env_cap) << ",\"smoke\":" << (run.smoke ? "true" : "false")
      << ",\"reference_isa\":" << json_string(run.reference_isa)
      << ",\"tuning\":" << (run.tuning_json.empty() ? "null" : run.tuning_json)
      << ",\"machine\":{\"cpu\":" << json_string(m.cpu_model) << ",\"cpus\":" << m.cpus
      << ",\"l1d_bytes\":" << m.l1d_bytes << ",\"l2_bytes\":" << m.l2_bytes
      << ",\"llc_bytes\":" << m.llc_bytes << ",\"thp\":" << json_string(m.transparent_huge_pages)
      << ",\"date\":" << json_string(m.date_utc) << ",\"load_average\":" << json_string(m.load_average) << ",\"compiler\":" << json_string(m.compiler) << "}";
    f << ",\"cases\":[";
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CaseResult& r = cases[i];
        f << (i ? "," : "") << "\n{\"case\":" << json_string(r.c.label)
          << ",\"dtype\":" << json_string(dtype_name(r.c.dtype)) << ",\"a\":[" << dims_csv(r.c.a)
          << "],\"b\":[" << dims_csv(r.c.b) << "],\"rule\":" << r.c.rule << ",\"axis\":" << r.c.axis
          << ",\"offsets\":" << json_string(r.layout.name) << ",\"threads\":" << r.threads
          << ",\"tasks\":" << r.tasks
          << ",\"speedup\":" << json_number(r.speedup) << ",\"offset_bytes\":{\"a\":" << r.layout.a
          << ",\"b\":" << r.layout.b << ",\"out\":" << r.layout.out << "}"
          << ",\"bytes\":" << fmt("%.0f", r.bytes) << ",\"in\":" << json_string(r.where)
          << ",\"reference\":" << json_string(reference_name(r.c.reference))
          << ",\"error\":" << json_string(r.error) << ",\"reference_time\":" << json_stats(r.reference)
          << ",\"reference_normal_stores\":" << json_stats(r.reference_normal)
          << ",\"reference_streaming_stores\":" << json_stats(r.reference_streaming)
          << ",\"bcast\":[";
        for (std::size_t k = 0; k < r.bcast.size(); ++k) {
            const IsaResult& b = r.bcast[k];
            f << (k ? "," : "") << "{\"cap\":" << json_string(b.cap) << ",\"isa\":" << json_string(b.isa)
              << ",\"kernel\":" << json_string(b.kernel) << ",\"time\":" << json_stats(b.stats)
              << ",\"over_reference\":" << json_number(b.over_reference) << "}";
        }
        f << "]}";
    }
    f << "],\n\"overheads\":[";
    for (std::size_t i = 0; i < overheads.size(); ++i) {
        const OverheadResult& o = overheads[i];
        f << (i ? "," : "") << "\n{\"what\":" << json_string(o.what) << ",\"cap\":" << json_string(o.cap)
          << ",\"isa\":" << json_string(o.isa) << ",\"time\":" << json_stats(o.stats)
          << ",\"target_ns\":" << o.target_ns << ",\"error\":" << json_string(o.error) << "}";
    }
    f << "]}\n";
    return static_cast<bool>(f);
}

}  // namespace bench
