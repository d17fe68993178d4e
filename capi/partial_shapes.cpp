// bcast_infer_partial_shape, bcast_infer_partial_expand_shape,
// bcast_conditions_hold, bcast_conditions_format: the caller's bcast_pshape
// (symbols as strings) to rules::partial's PShape (symbols as ids) and back.
#include "guard.hpp"

#include "rules/partial.hpp"

#include <array>
#include <cstring>
#include <vector>

namespace {

using bcast::fail;
namespace partial = bcast::rules::partial;

// The call's symbols: ids by name, and for each id the caller's first
// string, which output dims point at.
struct SymbolMap {
    partial::Symbols names;
    std::vector<const char*> strings;

    int32_t id(const char* s) {
        if (s == nullptr || *s == '\0') return 0;
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == s) return static_cast<int32_t>(i + 1);
        names.emplace_back(s);
        strings.push_back(s);
        return static_cast<int32_t>(names.size());
    }
};

// `what` names the shape ("input 1"), built only for a message.
template <class What>
partial::PShape to_partial(const bcast_pshape* s, What what, SymbolMap* symbols) {
    if (s == nullptr) fail(BCAST_ERROR_INVALID_ARGUMENT, what() + " is NULL");
    if (s->num_dims > BCAST_MAX_RANK)
        fail(BCAST_ERROR_INVALID_ARGUMENT, what() + ": " + std::to_string(s->num_dims) +
                                               " dims exceed the maximum rank of " +
                                               std::to_string(BCAST_MAX_RANK));
    if (s->num_dims > 0 && s->dims == nullptr)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             what() + ": dims is NULL but num_dims is " + std::to_string(s->num_dims));
    if (s->rank_known != 0 && s->rank_known != 1)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             what() + ": rank_known is " + std::to_string(s->rank_known) + " (0 or 1)");
    partial::PShape p;
    p.rank_known = s->rank_known == 1;
    p.rank = s->num_dims;
    for (std::size_t i = 0; i < s->num_dims; ++i)
        p.dims[i] = partial::PDim{s->dims[i].lo, s->dims[i].hi, symbols->id(s->dims[i].symbol)};
    return p;
}

struct Outputs {
    std::size_t out_capacity;
    bcast_pdim* out_dims;
    std::size_t* out_num_dims;
    int32_t* out_rank_known;
    std::size_t conditions_capacity;
    bcast_condition* conditions;
    std::size_t* num_conditions;

    void check() const {
        if (!out_num_dims || !out_rank_known || !num_conditions)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "out_num_dims, out_rank_known or num_conditions is NULL");
        if (!out_dims && out_capacity > 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "out_dims is NULL");
        if (!conditions && conditions_capacity > 0)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "conditions is NULL");
    }

    // Everything is checked before the first write.
    void write(const partial::Inference& r, const SymbolMap& symbols) const {
        if (r.out.rank > out_capacity)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "out_capacity " + std::to_string(out_capacity) +
                                                   " is below the output's " +
                                                   std::to_string(r.out.rank) + " dims");
        if (r.conditions.size() > conditions_capacity)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "conditions_capacity " + std::to_string(conditions_capacity) + " is below the " +
                     std::to_string(r.conditions.size()) + " condition atoms");
        for (std::size_t i = 0; i < r.out.rank; ++i) {
            const partial::PDim& d = r.out.dims[i];
            out_dims[i] = bcast_pdim{d.lo, d.hi,
                                     d.sym ? symbols.strings[static_cast<std::size_t>(d.sym - 1)]
                                           : nullptr};
        }
        *out_num_dims = r.out.rank;
        *out_rank_known = r.out.rank_known ? 1 : 0;
        for (std::size_t i = 0; i < r.conditions.size(); ++i) {
            const partial::Atom& a = r.conditions[i];
            conditions[i] = bcast_condition{a.clause, static_cast<bcast_cond_kind>(a.kind),
                                            a.input, a.other_input, a.axis, a.other};
        }
        *num_conditions = r.conditions.size();
    }
};

partial::Semantics semantics_of(bcast_semantics s) {
    // Range-checked by rules::partial (a bad value is INVALID_ARGUMENT there).
    return static_cast<partial::Semantics>(s);
}

std::vector<partial::Atom> atoms_of(std::size_t n, const bcast_condition* c) {
    if (n > 0 && c == nullptr)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "conditions is NULL but num_conditions is " + std::to_string(n));
    std::vector<partial::Atom> atoms(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (c[i].kind < BCAST_COND_DIM_EQ_VALUE || c[i].kind > BCAST_COND_RANK_LE)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "condition " + std::to_string(i) +
                                                   " has unknown kind " + std::to_string(c[i].kind));
        atoms[i] = partial::Atom{c[i].clause, static_cast<partial::AtomKind>(c[i].kind),
                                 c[i].input, c[i].other_input, c[i].axis, c[i].other};
    }
    return atoms;
}

}  // namespace

extern "C" {

bcast_status bcast_infer_partial_shape(bcast_semantics semantics, bcast_rule rule, int64_t axis,
                                       size_t num_inputs, const bcast_pshape* inputs,
                                       size_t out_capacity, bcast_pdim* out_dims,
                                       size_t* out_num_dims, int32_t* out_rank_known,
                                       size_t conditions_capacity, bcast_condition* conditions,
                                       size_t* num_conditions) noexcept {
    return bcast::capi::guarded([&] {
        const Outputs out{out_capacity,        out_dims,   out_num_dims,  out_rank_known,
                          conditions_capacity, conditions, num_conditions};
        out.check();
        if (num_inputs == 0 || num_inputs > BCAST_MAX_INPUTS)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "num_inputs " + std::to_string(num_inputs) +
                                                   " is outside 1.." +
                                                   std::to_string(BCAST_MAX_INPUTS));
        if (!inputs) fail(BCAST_ERROR_INVALID_ARGUMENT, "inputs is NULL");
        SymbolMap symbols;
        std::vector<partial::PShape> shapes(num_inputs);
        for (std::size_t j = 0; j < num_inputs; ++j)
            shapes[j] = to_partial(&inputs[j], [j] { return "input " + std::to_string(j); }, &symbols);
        const partial::Inference r = partial::infer(semantics_of(semantics), rule, axis,
                                                    shapes.data(), num_inputs, symbols.names);
        out.write(r, symbols);
    });
}

bcast_status bcast_infer_partial_expand_shape(bcast_semantics semantics, bcast_expand_mode mode,
                                              const bcast_pshape* data,
                                              const bcast_pshape* target,
                                              const int64_t* axes_mapping, size_t axes_count,
                                              int64_t axis, size_t out_capacity,
                                              bcast_pdim* out_dims, size_t* out_num_dims,
                                              int32_t* out_rank_known,
                                              size_t conditions_capacity,
                                              bcast_condition* conditions,
                                              size_t* num_conditions) noexcept {
    return bcast::capi::guarded([&] {
        const Outputs out{out_capacity,        out_dims,   out_num_dims,  out_rank_known,
                          conditions_capacity, conditions, num_conditions};
        out.check();
        SymbolMap symbols;
        const partial::PShape d = to_partial(data, [] { return std::string("data"); }, &symbols);
        const partial::PShape t =
            to_partial(target, [] { return std::string("target"); }, &symbols);
        const partial::Inference r =
            partial::infer_expand(semantics_of(semantics), mode, d, t, axes_mapping, axes_count,
                                  axis, symbols.names);
        out.write(r, symbols);
    });
}

bcast_status bcast_conditions_hold(size_t num_conditions, const bcast_condition* conditions,
                                   size_t num_inputs, const size_t* ranks,
                                   const int64_t* const* dims, int32_t* holds) noexcept {
    return bcast::capi::guarded([&] {
        if (!holds) fail(BCAST_ERROR_INVALID_ARGUMENT, "holds is NULL");
        const std::vector<partial::Atom> atoms = atoms_of(num_conditions, conditions);
        if (num_inputs > BCAST_MAX_INPUTS)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "num_inputs " + std::to_string(num_inputs) +
                                                   " exceeds " + std::to_string(BCAST_MAX_INPUTS));
        const std::vector<bcast::Shape> shapes =
            num_inputs == 0 ? std::vector<bcast::Shape>{}
                            : bcast::make_input_shapes(num_inputs, ranks, dims);
        *holds = partial::conditions_hold(atoms, shapes.data(), num_inputs) ? 1 : 0;
    });
}

size_t bcast_conditions_format(size_t num_conditions, const bcast_condition* conditions,
                               size_t num_inputs, const bcast_pshape* inputs, char* buf,
                               size_t size) noexcept {
    std::string text;
    const bcast_status st = bcast::capi::guarded([&] {
        const std::vector<partial::Atom> atoms = atoms_of(num_conditions, conditions);
        if (inputs && num_inputs > BCAST_MAX_INPUTS)
            fail(BCAST_ERROR_INVALID_ARGUMENT, "num_inputs " + std::to_string(num_inputs) +
                                                   " exceeds " + std::to_string(BCAST_MAX_INPUTS));
        // Without inputs a count of 0 says nothing of the inputs' number.
        partial::check_condition_inputs(atoms, num_inputs, inputs != nullptr || num_inputs > 0);
        SymbolMap symbols;
        const std::size_t n = inputs ? num_inputs : 0;
        std::vector<partial::PShape> shapes(n);
        for (std::size_t j = 0; j < n; ++j)
            shapes[j] = to_partial(&inputs[j], [j] { return "input " + std::to_string(j); }, &symbols);
        text = partial::format_conditions(atoms, shapes.data(), n, symbols.names);
    });
    if (st != BCAST_OK) {
        if (buf && size > 0) buf[0] = '\0';
        return 0;
    }
    return bcast::capi::describe_into([&] { return text; }, buf, size,
                                      "bcast_conditions_format: out of memory");
}

}  // extern "C"
