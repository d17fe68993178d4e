#include "machine_info.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

namespace bench {
namespace {

std::string first_line(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// sysfs sizes look like "48K" or "307200K".
std::size_t parse_size(const std::string& text) {
    if (text.empty()) return 0;
    std::size_t value = std::stoul(text);
    if (text.back() == 'K') value <<= 10;
    if (text.back() == 'M') value <<= 20;
    return value;
}

void read_caches(MachineInfo& m) {
    int llc_level = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string dir =
            "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string level = first_line(dir + "level");
        const std::string type = first_line(dir + "type");
        if (level.empty()) break;
        const std::size_t size = parse_size(first_line(dir + "size"));
        const int lv = std::stoi(level);
        if (lv == 1 && type == "Data") m.l1d_bytes = size;
        if (lv == 2) m.l2_bytes = size;
        if (lv >= 2 && lv >= llc_level) {
            llc_level = lv;
            m.llc_bytes = size;
        }
    }
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown CPU";
}

// "always [madvise] never" -> "madvise".
std::string thp_mode() {
    const std::string line = first_line("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::size_t open = line.find('['), close = line.find(']');
    if (open == std::string::npos || close == std::string::npos) return "unknown";
    return line.substr(open + 1, close - open - 1);
}

// "0.52 0.40 0.31 1/123 4567" -> "0.52 0.40 0.31".
std::string load_average() {
    std::istringstream in(first_line("/proc/loadavg"));
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

}  // namespace

MachineInfo machine_info() {
    MachineInfo m;
    m.cpu_model = cpu_model();
    m.cpus = std::thread::hardware_concurrency();
    read_caches(m);
    m.transparent_huge_pages = thp_mode();
    m.load_average = load_average();
    m.date_utc = utc_now();
#if defined(__VERSION__)
    m.compiler = __VERSION__;
#endif
    return m;
}

const char* residency(double bytes, const MachineInfo& m) {
    if (m.l1d_bytes && bytes <= static_cast<double>(m.l1d_bytes)) return "L1";
    if (m.l2_bytes && bytes <= static_cast<double>(m.l2_bytes)) return "L2";
    if (m.llc_bytes && bytes <= static_cast<double>(m.llc_bytes)) return "LLC";
    return ">LLC";
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (bytes >= 1024 && u < 3) {
        bytes /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, bytes < 10 && u > 0 ? "%.1f %s" : "%.0f %s", bytes,
                  units[u]);
    return text;
}

}  // namespace bench
