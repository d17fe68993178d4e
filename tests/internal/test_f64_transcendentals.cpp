// The f64 ATAN2, LOGADDEXP and POW kernels (double-double, simd_f64_*.hpp)
// of every host ISA that has them, against a long double reference written
// here (64-bit significand: the reference's own error is below 2^-11 ulp of
// a double), over inputs chosen for where double-double matters: wide
// exponents, ratios near 1, bases near 1 with large exponents, results near
// the overflow and underflow thresholds, the logaddexp difference range,
// and the special values, which must match exactly (any NaN for NaN).
#include <catch2/catch.hpp>

#include "kernels/dispatch.hpp"
#include "kernels/isas.hpp"
#include "kernels/kernel_table.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

// A kernel's distance from the exact value x, in ulps of the double nearest
// x (the ulp below a power of two where x lies below it); 0 for exact
// special values, infinity for any other mismatch.
double ulps_from(double got, long double exact) {
    const double nearest = static_cast<double>(exact);
    if (std::isnan(nearest)) return std::isnan(got) ? 0 : INFINITY;
    if (std::isinf(nearest) || nearest == 0 || !std::isfinite(got)) {
        return got == nearest && std::signbit(got) == std::signbit(nearest) ? 0 : INFINITY;
    }
    const long double magnitude = std::fabs(exact);
    double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
    if (std::isnormal(nearest) && magnitude < std::fabs(nearest) &&
        std::fabs(nearest) == std::ldexp(1.0, std::ilogb(nearest))) {
        ulp /= 2;
    }
    return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
}

long double atan2_reference(double x, double y) { return std::atan2(static_cast<long double>(x), static_cast<long double>(y)); }

long double pow_reference(double x, double y) { return std::pow(static_cast<long double>(x), static_cast<long double>(y)); }

// Only where the vector form answers: results of at least 1/32 of the log
// term; elsewhere both it and the portable kernel are long double.
long double logaddexp_reference(double x, double y) {
    const long double wx = x, wy = y;
    if (x == y) return wx + 0.693147180559945309417232121458176568L;
    const long double big = wx > wy ? wx : wy;
    return big + std::log1p(std::exp(-std::fabs(wx - wy)));
}

struct Inputs {
    std::vector<double> x, y;
    void add(double a, double b) {
        x.push_back(a);
        y.push_back(b);
    }
};

double random_bits(std::mt19937_64& rng) {
    const std::uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

Inputs inputs_for(bcast_opcode op) {
    std::mt19937_64 rng(0xF64 + op);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const auto scaled = [&](int lo, int hi) {
        return std::ldexp(unit(rng), lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo)));
    };
    Inputs in;
    const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, 2.0, -2.0,
                               1e-310, -1e-310, 1e308, -1e308, 708.0, -745.0, 3.0, 0x1p-1022};
    for (double a : specials) {
        for (double b : specials) in.add(a, b);
    }
    for (int i = 0; i < 20000; ++i) {
        in.add(random_bits(rng), random_bits(rng));
        in.add(scaled(-60, 60), scaled(-60, 60));
        in.add(unit(rng) * 40, unit(rng) * 40);
        const double a = scaled(-30, 30);
        in.add(a, a * (1 + unit(rng) * 1e-6));  // ratio near 1, difference near 0
    }
    for (int i = 0; i < 20000; ++i) {
        // Subnormal numerators, and quotients near 2^-1022.
        in.add(std::ldexp(static_cast<double>(rng() % 4096), -1074), 1 + std::fabs(unit(rng)) * 3);
        in.add(std::ldexp(1 + std::fabs(unit(rng)), -1000), std::ldexp(1 + std::fabs(unit(rng)), 30));
    }
    if (op == BCAST_OP_LOGADDEXP) {
        for (int i = 0; i < 20000; ++i) {
            // A difference below -37 (exp of it below 2^-53) with a max of
            // about -exp(y) cancelling up to half of the log term.
            const double y = -37 - std::fabs(unit(rng)) * 23;
            in.add(-(0.73 + unit(rng) * 0.23) * std::exp(y), y);
        }
    }
    if (op == BCAST_OP_POW) {
        for (int i = 0; i < 20000; ++i) {
            // Bases near 1 with exponents up to ~1e7, and results near the
            // overflow and underflow thresholds.
            in.add(1 + unit(rng) * 1e-4, unit(rng) * 1e7);
            const double base = std::fabs(scaled(-40, 40));
            in.add(base, (700 + unit(rng) * 20) / std::log(base));
            in.add(std::fabs(unit(rng)) * 100, std::floor(unit(rng) * 60));
            in.add(-std::fabs(unit(rng)) * 100, std::floor(unit(rng) * 60));
            in.add(base, (-708 - std::fabs(unit(rng)) * 40) / std::log(base));  // near 2^-1022
        }
    }
    return in;
}

// What C's libm gives, where results must be its own (subnormal ones).
double libm(bcast_opcode op, double x, double y) {
    return op == BCAST_OP_ATAN2 ? std::atan2(x, y) : std::pow(x, y);
}

long double reference(bcast_opcode op, double x, double y) {
    switch (op) {
        case BCAST_OP_ATAN2: return atan2_reference(x, y);
        case BCAST_OP_POW: return pow_reference(x, y);
        default: return logaddexp_reference(x, y);
    }
}

// The lanes the portable kernel answers for the vector form (logaddexp
// results below 1/32 of the log term): not this test's concern.
bool left_to_portable(bcast_opcode op, double x, double y, long double exact) {
    if (op != BCAST_OP_LOGADDEXP || std::isnan(exact)) return false;
    const long double log_term = exact - (x > y ? x : y);
    return std::fabs(exact) < log_term / 32;
}

}  // namespace

TEST_CASE("f64 transcendentals are within 1 ulp of a long double reference", "[simd][f64]") {
    std::size_t isas_with_f64 = 0;
#define BCAST_ISA_NAME(isa, arch) #isa,
    for (const char* isa : {BCAST_SIMD_ISAS(BCAST_ISA_NAME)}) {
#undef BCAST_ISA_NAME
        if (!bcast::kernels::isa_available(isa)) continue;
        bool has_f64 = false;
        for (bcast_opcode op : {BCAST_OP_ATAN2, BCAST_OP_LOGADDEXP, BCAST_OP_POW}) {
            const bcast::kernels::OpKernels* k =
                bcast::kernels::isa_own_kernels(isa, op, BCAST_DTYPE_F64);
            if (!k) continue;
            INFO(isa << " op " << op);
            has_f64 = true;
            const Inputs in = inputs_for(op);
            std::vector<double> out(in.x.size());
            k->vv(in.x.size(), in.x.data(), in.y.data(), out.data(), false);
            double worst = 0;
            std::size_t worst_at = 0, subnormals_differing = 0;
            for (std::size_t i = 0; i < out.size(); ++i) {
                const long double exact = reference(op, in.x[i], in.y[i]);
                if (left_to_portable(op, in.x[i], in.y[i], exact)) continue;
                const double nearest = static_cast<double>(exact);
                if (op != BCAST_OP_LOGADDEXP && nearest != 0 && std::fabs(nearest) < 0x1p-1022) {
                    const double want = libm(op, in.x[i], in.y[i]);
                    if (std::memcmp(&want, &out[i], sizeof want) != 0) ++subnormals_differing;
                }
                const double e = ulps_from(out[i], exact);
                if (e > worst) {
                    worst = e;
                    worst_at = i;
                }
            }
            INFO("worst " << worst << " ulp, at x = " << in.x[worst_at] << ", y = "
                          << in.y[worst_at] << ": got " << out[worst_at]);
            CHECK(worst <= 1.0);
            CHECK(subnormals_differing == 0);
        }
        if (has_f64) ++isas_with_f64;
    }
    // AVX2 and AVX-512 have f64 kernels; SSE2 (no FMA) and NEON (two lanes) not.
    CHECK(isas_with_f64 == static_cast<std::size_t>(bcast::kernels::isa_available("avx2")) +
                               static_cast<std::size_t>(bcast::kernels::isa_available("avx512")));
}
