// The names of the C API's values (since 1.3) against two independent lists:
// the header's enumerators, read from the header file itself, and the scalar
// reference's op and dtype rows. A value added to the header or to the op
// table without the other, or without its row in the reference, fails here.
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include "api/scalar_reference.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using NameOf = const char* (*)(int32_t);
using ValueOf = bcast_status (*)(const char*, int32_t*);

struct Kind {
    const char* prefix;  // of the header's enumerators
    NameOf name_of;
    ValueOf value_of;
};

const Kind kKinds[] = {
    {"BCAST_OP_", bcast_opcode_name, bcast_opcode_from_name},
    {"BCAST_DTYPE_", bcast_dtype_name, bcast_dtype_from_name},
    {"BCAST_RULE_", bcast_rule_name, bcast_rule_from_name},
    {"BCAST_EXPAND_", bcast_expand_mode_name, bcast_expand_mode_from_name},
};

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The enumerators "PREFIXNAME = value" of the public header, as its text has them.
std::map<int32_t, std::string> header_enumerators(const std::string& prefix) {
    std::ifstream in(BCAST_TEST_HEADER);
    REQUIRE(in);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::regex enumerator("\\b" + prefix + "([A-Z0-9_]+) = ([0-9]+)");
    std::map<int32_t, std::string> found;
    for (std::sregex_iterator it(text.begin(), text.end(), enumerator), end; it != end; ++it) {
        const auto value = static_cast<int32_t>(std::stol((*it)[2]));
        CHECK(found.count(value) == 0);  // no value twice
        found[value] = (*it)[1];
    }
    return found;
}

// The library's names of one kind, from 0 to the first NULL.
std::vector<std::string> library_names(NameOf name_of) {
    std::vector<std::string> names;
    for (int32_t v = 0; v < 1000 && name_of(v); ++v) names.push_back(name_of(v));
    return names;
}

}  // namespace

TEST_CASE("names: every header enumerator is named by the library, and nothing else",
          "[names]") {
    for (const Kind& kind : kKinds) {
        INFO(kind.prefix);
        const std::map<int32_t, std::string> header = header_enumerators(kind.prefix);
        const std::vector<std::string> names = library_names(kind.name_of);
        REQUIRE(!header.empty());
        CHECK(names.size() == header.size());
        for (const auto& [value, enumerator] : header) {
            INFO(enumerator);
            REQUIRE(value < static_cast<int32_t>(names.size()));
            CHECK(upper(names[value]) == enumerator);
        }
    }
}

TEST_CASE("names: the case each kind is written in", "[names]") {
    CHECK(std::string(bcast_opcode_name(BCAST_OP_FLOOR_DIVIDE)) == "FLOOR_DIVIDE");
    CHECK(std::string(bcast_dtype_name(BCAST_DTYPE_BF16)) == "bf16");
    CHECK(std::string(bcast_dtype_name(BCAST_DTYPE_BOOL)) == "bool");
    CHECK(std::string(bcast_rule_name(BCAST_RULE_ONNX_LEGACY)) == "onnx_legacy");
    CHECK(std::string(bcast_expand_mode_name(BCAST_EXPAND_BIDIRECTIONAL)) == "bidirectional");
}

TEST_CASE("names: every value round-trips value -> name -> value -> name, in any case",
          "[names]") {
    for (const Kind& kind : kKinds) {
        const std::vector<std::string> names = library_names(kind.name_of);
        for (int32_t v = 0; v < static_cast<int32_t>(names.size()); ++v) {
            const std::string name = names[v];
            INFO(kind.prefix << name);
            for (const std::string& spelling : {name, lower(name), upper(name)}) {
                int32_t got = -1;
                REQUIRE(kind.value_of(spelling.c_str(), &got) == BCAST_OK);
                CHECK(got == v);
                CHECK(std::string(kind.name_of(got)) == name);
            }
        }
    }
}

TEST_CASE("names: unknown values have no name", "[names]") {
    for (const Kind& kind : kKinds) {
        INFO(kind.prefix);
        const auto count = static_cast<int32_t>(library_names(kind.name_of).size());
        for (int32_t v : {-1, count, count + 1, INT32_MAX, INT32_MIN}) CHECK(kind.name_of(v) == nullptr);
    }
}

TEST_CASE("names: unknown names and NULL are refused with a message, nothing written",
          "[names]") {
    constexpr int32_t kUntouched = 0x5A5A;
    for (const Kind& kind : kKinds) {
        INFO(kind.prefix);
        const std::string first = kind.name_of(0);
        const std::string last = library_names(kind.name_of).back();
        // Near misses: blanks, '-' for '_', a prefix, a suffix, the enumerator.
        for (const std::string& bad :
             {std::string("frobnicate"), std::string(), " " + first, first + " ", first + "x",
              first.substr(0, first.size() - 1), std::string(kind.prefix) + first}) {
            INFO("'" << bad << "'");
            int32_t out = kUntouched;
            CHECK(kind.value_of(bad.c_str(), &out) == BCAST_ERROR_INVALID_ARGUMENT);
            CHECK(out == kUntouched);
            const std::string message = bcast_last_error();
            CHECK(message.find("'" + bad + "'") != std::string::npos);
            CHECK(message.find(", " + last + ")") != std::string::npos);  // the names are listed
        }
        int32_t out = kUntouched;
        CHECK(kind.value_of(nullptr, &out) == BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(std::strstr(bcast_last_error(), "name is NULL") != nullptr);
        CHECK(out == kUntouched);
        CHECK(kind.value_of(first.c_str(), nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(bcast_last_error()) == "out is NULL");
    }
    // Aliases are the caller's business.
    int32_t out = kUntouched;
    CHECK(bcast_rule_from_name("multidirectional", &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_dtype_from_name("float32", &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_opcode_from_name("floor-divide", &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(out == kUntouched);
    // A long name is quoted shortened, so that the list of names still fits.
    const std::string long_name(5000, 'a');
    CHECK(bcast_opcode_from_name(long_name.c_str(), &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::strstr(bcast_last_error(), "COPY") != nullptr);
    // So is an unknown ISA's (nothing capped).
    const std::string before = bcast_isa();
    CHECK(bcast_set_max_isa(long_name.c_str()) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("'" + long_name.substr(0, 64) + "...' (expected one of: ") !=
          std::string::npos);
    CHECK(std::strstr(bcast_last_error(), bcast_isa_name(0)) != nullptr);
    CHECK(bcast_isa() == before);
}

TEST_CASE("names: the scalar reference has a row for every op and dtype the library names",
          "[names]") {
    const std::vector<std::string> ops = library_names(bcast_opcode_name);
    const std::vector<std::string> dtypes = library_names(bcast_dtype_name);
    REQUIRE(ops.size() == static_cast<std::size_t>(bref::kNumOpcodes));
    REQUIRE(dtypes.size() == static_cast<std::size_t>(bref::kNumDtypes));
    for (int op = 0; op < bref::kNumOpcodes; ++op) CHECK(ops[op] == bref::op_name(op));
    for (int dt = 0; dt < bref::kNumDtypes; ++dt) CHECK(upper(dtypes[dt]) == bref::dtype_name(dt));
}

TEST_CASE("names: bcast_op_output_dtype is the reference's output dtype", "[names]") {
    for (int op = 0; op < bref::kNumOpcodes; ++op) {
        for (int dt = 0; dt < bref::kNumDtypes; ++dt) {
            INFO(bref::op_name(op) << " " << bref::dtype_name(dt));
            bcast_dtype out = -7;
            const bcast_status st = bcast_op_output_dtype(op, dt, &out);
            if (bref::expected_support(op, dt)) {
                CHECK(st == BCAST_OK);
                CHECK(out == bref::output_dtype(op, dt));
            } else {
                CHECK(st == BCAST_ERROR_UNSUPPORTED);
                CHECK(out == -7);
                CHECK(std::string(bcast_last_error()).find("does not take dtype") != std::string::npos);
            }
        }
    }
    bcast_dtype out = -7;
    CHECK(bcast_op_output_dtype(bref::kNumOpcodes, BCAST_DTYPE_F32, &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()) == "unknown opcode " + std::to_string(bref::kNumOpcodes));
    CHECK(bcast_op_output_dtype(BCAST_OP_ADD, -1, &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()) == "unknown dtype -1");
    CHECK(out == -7);
    CHECK(bcast_op_output_dtype(BCAST_OP_LESS, BCAST_DTYPE_F32, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
}
