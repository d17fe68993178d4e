#!/usr/bin/python3
"""Plot bench/throughput_sweep.py's JSON: GB/s against size, one panel per case.

Usage:
  /usr/bin/python3 bench/plot_throughput.py sweep.json docs/throughput.png [--note TEXT]

Needs Debian's matplotlib (a tool, not a test dependency):
  apt-get install -y python3-matplotlib
"""
import argparse
import json
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {  # implementation: (label, colour, marker)
    "bcast": ("bcast (ctypes, planned once)", "tab:blue", "o"),
    "numpy": ("numpy np.add(out=)", "tab:orange", "s"),
    "roofline": ("roofline: memmove of the same bytes", "tab:gray", "^"),
}


def size_label(elements):
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if elements >= scale and elements % scale == 0:
            return f"{elements // scale}{unit}"
    return str(elements)


def draw_case(ax, case):
    points = case["points"]
    sizes = [p["n"] for p in points]
    for key, (label, colour, marker) in STYLE.items():
        gbps = [p["bytes"] / p["seconds"][key] / 1e9 for p in points]
        ax.plot(sizes, gbps, label=label, color=colour, marker=marker,
                linestyle="--" if key == "roofline" else "-")
    cross = case.get("bench_reference", [])
    if cross:
        ax.scatter([p["n"] for p in cross], [p["bytes"] / p["seconds"] / 1e9 for p in cross],
                   color="black", marker="x", s=60, zorder=3,
                   label="C reference loop (bcast_bench, same bytes)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(n) for n in sizes])
    ax.set_xlabel("output elements (f32)")
    ax.set_title(case["name"])
    ax.set_ylim(bottom=0)
    ax.grid(True, which="major", alpha=0.3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep", help="JSON from bench/throughput_sweep.py")
    parser.add_argument("png", help="image to write")
    parser.add_argument("--note", default="", help="extra subtitle text, e.g. 'machine busy'")
    args = parser.parse_args()
    with open(args.sweep) as f:
        sweep = json.load(f)

    fig, axes = plt.subplots(1, len(sweep["cases"]), figsize=(6.5 * len(sweep["cases"]), 5.2), sharey=True)
    for ax, case in zip(axes, sweep["cases"]):
        draw_case(ax, case)
    axes[0].set_ylabel("GB/s  (inputs + output bytes / min time)")
    axes[0].legend(loc="upper right", fontsize=8)
    fig.suptitle(f"bcast {sweep['bcast_version']} f32 ADD throughput, single thread — {sweep['cpu']}, "
                 f"{sweep['cpus']} CPUs, {sweep['date']}", fontsize=11)
    subtitle = (f"kernel set {sweep['isa']}; numpy {sweep['numpy']}; min of {sweep['repeats']} alternating "
                f"repeats; {sweep['alignment_bytes']}-B aligned buffers; load average "
                f"{sweep['load_average_before'].split()[0]} → {sweep['load_average_after'].split()[0]}")
    lines = [subtitle] + textwrap.wrap(args.note, 150)
    fig.text(0.5, 0.935, "\n".join(lines), ha="center", va="top", fontsize=8.5, color="dimgray")
    fig.tight_layout(rect=(0, 0, 1, 0.93 - 0.03 * len(lines)))
    fig.savefig(args.png, dpi=110)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
