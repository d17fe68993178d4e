#include "cli_partial.hpp"

#include "cli_parse.hpp"

#include <cctype>
#include <cstdio>

namespace bcast_cli {

bcast_pshape PartialShape::bind() {
    for (std::size_t i = 0; i < dims.size(); ++i)
        dims[i].symbol = symbols[i].empty() ? nullptr : symbols[i].c_str();
    return bcast_pshape{rank_known, dims.size(), dims.data()};
}

namespace {

// An 'x' between digits (blanks aside) separates a static shape's extents
// ("2x3"); anywhere else it is a letter of a symbol ("x", "x1", "2,x").
bool separates_digits(const std::string& t, std::size_t i) {
    auto digit = [&](std::size_t j) { return std::isdigit(static_cast<unsigned char>(t[j])) != 0; };
    auto blank = [&](std::size_t j) { return std::isspace(static_cast<unsigned char>(t[j])) != 0; };
    std::size_t before = i, after = i + 1;
    while (before > 0 && blank(before - 1)) --before;
    while (after < t.size() && blank(after)) ++after;
    return before > 0 && digit(before - 1) && after < t.size() && digit(after);
}

}  // namespace

bool looks_partial(const std::string& arg) {
    const std::string t = trim(arg);
    if (name_key(t) == "scalar") return false;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (c == '?' || c == '.' || c == '_') return true;
        if (!std::isalpha(static_cast<unsigned char>(c))) continue;
        if ((c != 'x' && c != 'X') || !separates_digits(t, i)) return true;
    }
    return false;
}

namespace {

bool is_symbol(const std::string& t) {
    if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return false;
    for (char c : t)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// Extents in a static shape's other spellings ("2x3", "2 3", "2*3"), which
// no partial dimension uses: digits, blanks, 'x', 'X' and '*' only, with a
// separator in it.
bool is_static_run(const std::string& t) {
    bool separated = false;
    for (char c : t) {
        if (c == 'x' || c == 'X' || c == '*' || std::isspace(static_cast<unsigned char>(c))) separated = true;
        else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return separated && std::isdigit(static_cast<unsigned char>(t.front())) &&
           std::isdigit(static_cast<unsigned char>(t.back()));
}

}  // namespace

PartialShape parse_partial_shape(const std::string& arg) {
    std::string s = trim(arg);
    PartialShape p;
    if (name_key(s) == "scalar") return p;  // rank 0, as in a static shape
    if (!s.empty() && (s.front() == '(' || s.front() == '[')) {
        if (s.size() < 2 || s.back() != (s.front() == '(' ? ')' : ']'))
            usage_error("bad shape '" + arg + "': unbalanced bracket");
        s = trim(s.substr(1, s.size() - 2));
    }
    std::size_t start = 0;
    while (!s.empty()) {
        const std::size_t comma = s.find(',', start);
        const std::string t = trim(s.substr(start, comma == std::string::npos ? comma : comma - start));
        bcast_pdim d{0, BCAST_DIM_UNBOUNDED, nullptr};
        std::string symbol;
        const std::size_t dots = t.find("..");
        int64_t v = 0;
        if (t == "..." && p.dims.empty() && p.rank_known) {
            p.rank_known = 0;
        } else if (t == "?") {
            p.dims.push_back(d);
            p.symbols.emplace_back();
        } else if (is_symbol(t)) {
            p.dims.push_back(d);
            p.symbols.push_back(t);
        } else if (parse_int(t, false, &v)) {
            p.dims.push_back(bcast_pdim{v, v, nullptr});
            p.symbols.emplace_back();
        } else if (is_static_run(t)) {
            for (int64_t e : parse_shape(t)) {
                p.dims.push_back(bcast_pdim{e, e, nullptr});
                p.symbols.emplace_back();
            }
        } else if (dots != std::string::npos && dots > 0 &&
                   parse_int(t.substr(0, dots), false, &d.lo) &&
                   (dots + 2 == t.size() || parse_int(t.substr(dots + 2), false, &d.hi))) {
            p.dims.push_back(d);
            p.symbols.emplace_back();
        } else {
            usage_error("bad shape '" + arg + "': '" + t +
                        "' is not an extent, ?, a symbol, LO..HI or LO.. (a leading ... "
                        "means unknown rank)");
        }
        // A single trailing comma is allowed, Python style: (N,)
        if (comma == std::string::npos || (comma + 1 == s.size() && !p.dims.empty())) break;
        start = comma + 1;
    }
    return p;
}

namespace {

std::string format_pdim(const bcast_pdim& d) {
    if (d.symbol) return d.symbol;
    if (d.lo == d.hi) return std::to_string(d.lo);
    if (d.lo == 0 && d.hi == BCAST_DIM_UNBOUNDED) return "?";
    return std::to_string(d.lo) + ".." + (d.hi == BCAST_DIM_UNBOUNDED ? "" : std::to_string(d.hi));
}

}  // namespace

int shape_partial(const std::vector<std::string>& args, bool expand, int32_t rule_or_mode,
                  int64_t axis, const std::vector<int64_t>* mapping) {
    if (args.size() > BCAST_MAX_INPUTS)
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " shapes");
    if (expand && args.size() != 2)
        usage_error("--expand needs exactly two shapes, DATA and TARGET (got " +
                    std::to_string(args.size()) + ")");
    std::vector<PartialShape> parsed;
    for (const std::string& a : args) parsed.push_back(parse_partial_shape(a));
    std::vector<bcast_pshape> in;
    for (PartialShape& p : parsed) in.push_back(p.bind());
    bcast_pdim out[BCAST_MAX_RANK];
    size_t out_n = 0, num_conds = 0;
    int32_t known = 0;
    std::vector<bcast_condition> conds(BCAST_MAX_CONDITIONS);
    const bcast_status st =
        expand ? bcast_infer_partial_expand_shape(
                     BCAST_SEMANTICS_STRICT, rule_or_mode, &in[0], &in[1],
                     mapping ? mapping->data() : nullptr, mapping ? mapping->size() : 0, axis,
                     BCAST_MAX_RANK, out, &out_n, &known, conds.size(), conds.data(), &num_conds)
               : bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, rule_or_mode, axis, in.size(),
                                           in.data(), BCAST_MAX_RANK, out, &out_n, &known,
                                           conds.size(), conds.data(), &num_conds);
    if (st != BCAST_OK) return refused(st);
    std::string text = known ? "(" : (out_n ? "(...," : "(...");
    for (size_t i = 0; i < out_n; ++i) text += (i ? "," : "") + format_pdim(out[i]);
    std::printf("%s)\n", text.c_str());
    if (num_conds > 0) {
        const size_t len = bcast_conditions_format(num_conds, conds.data(), in.size(), in.data(),
                                                   nullptr, 0);
        std::string clauses(len + 1, '\0');
        bcast_conditions_format(num_conds, conds.data(), in.size(), in.data(), &clauses[0],
                                clauses.size());
        clauses.resize(len);
        std::printf("where:\n  ");
        for (char c : clauses) {
            if (c == '\n') std::printf("\n  ");
            else std::putchar(c);
        }
        std::printf("\n");
    }
    return kExitOk;
}

}  // namespace bcast_cli
