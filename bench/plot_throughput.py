#!/usr/bin/python3
"""Plot bench/throughput_sweep.py's JSON: GB/s against size, one panel per case and thread count.

Usage:
  /usr/bin/python3 bench/plot_throughput.py sweep.json docs/throughput.png [--note TEXT]

The PNG carries the run in tEXt chunks (PNG_KEYS): the bcast version, the
sweep's settings, the machine and the date; tests/python/test_throughput_plot.py
checks that docs/throughput.png names the project's current version.
Needs Debian's matplotlib: apt-get install -y python3-matplotlib
"""
import argparse
import json
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {  # series: (label, colour, line style, marker)
    "bcast_tuned": ("bcast, tuned (bcast tune's file)", "tab:blue", "-", "o"),
    "bcast_untuned": ("bcast, untuned (BCAST_TUNING=off)", "tab:cyan", "--", "v"),
    "bcast_tuned_aligned64": ("bcast, tuned, 64-byte aligned copies", "tab:purple", ":", "."),
    "numpy": ("numpy np.add(out=), one thread", "tab:orange", "-", "s"),
    "roofline": ("roofline: same-run loop moving the same bytes, every thread", "tab:gray", "--", "^"),
}
# tEXt keys (PNG: Latin-1, at most 79 characters).
PNG_KEYS = {"version": "bcast version", "settings": "bcast sweep settings"}


def size_label(elements):
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if elements >= scale and elements % scale == 0:
            return f"{elements // scale}{unit}"
    return str(elements)


def draw_panel(ax, panel):
    points = panel["points"]
    sizes = [p["n"] for p in points]
    for key, (label, colour, style, marker) in STYLE.items():
        gbps = [p["bytes"] / p["seconds"][key] / 1e9 for p in points]
        ax.plot(sizes, gbps, label=label, color=colour, linestyle=style, marker=marker,
                linewidth=1.0 if key == "bcast_tuned_aligned64" else 1.6)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(n) for n in sizes])
    ax.set_xlabel("output elements (f32)")
    threads = panel["threads"]
    ax.set_title(f"{panel['case']}, {threads} thread{'s' if threads > 1 else ''}", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)


def offsets_seen(sweep):
    """"a +0/+32, b +16, y +16": each array's address % 64 over the run
    (a point's label is "+16" when all three agree, else "a+0 b+16 y+16")."""
    seen = {name: set() for name in "aby"}
    for panel in sweep["panels"]:
        for p in panel["points"]:
            words = p["offsets"].split()
            pairs = zip("aby", words * 3) if len(words) == 1 else (w.split("+") for w in words)
            for name, offset in pairs:
                seen[name].add(int(offset.lstrip("+")))
    return ", ".join(f"{name} " + "/".join(f"+{o}" for o in sorted(v)) for name, v in seen.items())


def settings(sweep):
    """The sweep's settings for the PNG's metadata (everything but the times)."""
    keep = ("bcast_version", "isa", "numpy", "python", "cpu", "cpu_key", "cpus", "date", "quick", "repeats",
            "repeat_seconds", "threads", "sizes", "tuned", "untuned", "alignment", "roofline",
            "load_average_before", "load_average_after", "seconds_total")
    return json.dumps({k: sweep[k] for k in keep if k in sweep}, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep", help="JSON from bench/throughput_sweep.py")
    parser.add_argument("png", help="image to write")
    parser.add_argument("--note", default="", help="extra caption text, e.g. 'machine shared, noisy'")
    args = parser.parse_args()
    with open(args.sweep) as f:
        sweep = json.load(f)

    cases = list(dict.fromkeys(p["case"] for p in sweep["panels"]))
    threads = list(dict.fromkeys(p["threads"] for p in sweep["panels"]))
    fig, axes = plt.subplots(len(cases), len(threads), figsize=(6.2 * len(threads), 4.3 * len(cases)),
                             squeeze=False, sharey="row")
    for panel in sweep["panels"]:
        draw_panel(axes[cases.index(panel["case"])][threads.index(panel["threads"])], panel)
    for row in axes:
        row[0].set_ylabel("GB/s (inputs + output / min time)")
        row[0].set_ylim(0, 1.05 * max(line.get_ydata().max() for ax in row for line in ax.get_lines()))
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8.5,
               frameon=False)
    fig.suptitle(f"bcast {sweep['bcast_version']}: f32 ADD throughput on {sweep['cpu']} "
                 f"({sweep['cpu_key']}), {sweep['cpus']} vCPUs, {sweep['date']}", fontsize=11)
    caption = (f"kernel set {sweep['isa']}; numpy {sweep['numpy']}; alignment: numpy's own arrays "
               f"(address % 64: {offsets_seen(sweep)}), the aligned series on "
               f"64-byte aligned copies; untuned = {sweep['untuned']}; min of {sweep['repeats']} alternated "
               f"rounds{' (QUICK run: not a measurement)' if sweep['quick'] else ''}; load average "
               f"{sweep['load_average_before'].split()[0]} -> {sweep['load_average_after'].split()[0]}")
    lines = textwrap.wrap(caption, 165) + textwrap.wrap(args.note, 165)
    top = 0.955
    fig.text(0.5, top, "\n".join(lines), ha="center", va="top", fontsize=8, color="dimgray")
    fig.tight_layout(rect=(0, 0.06, 1, top + 0.01 - 0.017 * len(lines)))
    metadata = {"Title": "bcast f32 ADD throughput", "Software": "bench/plot_throughput.py (matplotlib)",
                PNG_KEYS["version"]: sweep["bcast_version"], PNG_KEYS["settings"]: settings(sweep)}
    if args.note:
        metadata["Comment"] = args.note
    fig.savefig(args.png, dpi=100, metadata=metadata)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
