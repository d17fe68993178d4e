#include "cli_npy.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>

namespace bcast_cli {

namespace {

const unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

struct DescrName {
    const char* code;  // numpy's type code without the byte-order character
    int32_t dtype;
};

const DescrName kDescrs[] = {
    {"b1", BCAST_DTYPE_BOOL}, {"i1", BCAST_DTYPE_I8},  {"u1", BCAST_DTYPE_U8},
    {"i2", BCAST_DTYPE_I16},  {"u2", BCAST_DTYPE_U16}, {"i4", BCAST_DTYPE_I32},
    {"u4", BCAST_DTYPE_U32},  {"i8", BCAST_DTYPE_I64}, {"u8", BCAST_DTYPE_U64},
    {"f2", BCAST_DTYPE_F16},  {"f4", BCAST_DTYPE_F32}, {"f8", BCAST_DTYPE_F64},
};

bool little_endian_host() {
    const uint16_t one = 1;
    unsigned char first = 0;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

// The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// This parser accepts exactly the values numpy writes there: strings, True,
// False, tuples of integers; a list (structured dtype) is reported as such.
class HeaderParser {
public:
    HeaderParser(const std::string& text, const std::string& name) : s_(text), name_(name) {}

    void parse(std::string* descr, bool* fortran, Shape* shape) {
        bool have_descr = false, have_fortran = false, have_shape = false;
        expect('{');
        while (!peek('}')) {
            const std::string key = string_literal();
            expect(':');
            if (key == "descr") {
                if (peek('[')) fail("structured dtypes are not supported");
                *descr = string_literal();
                have_descr = true;
            } else if (key == "fortran_order") {
                *fortran = boolean();
                have_fortran = true;
            } else if (key == "shape") {
                *shape = int_tuple();
                have_shape = true;
            } else {
                fail("unexpected header key '" + key + "'");
            }
            if (!peek('}')) expect(',');
        }
        expect('}');
        skip_space();  // numpy pads with spaces and ends with a newline
        if (i_ != s_.size()) fail("unexpected text after the header's dict");
        if (!have_descr || !have_fortran || !have_shape)
            fail("the header lacks descr, fortran_order or shape");
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw NpyError(name_ + ": not a supported .npy file: " + why);
    }
    void skip_space() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    bool peek(char c) {
        skip_space();
        return i_ < s_.size() && s_[i_] == c;
    }
    void expect(char c) {
        if (!peek(c)) fail(std::string("malformed header (expected '") + c + "')");
        ++i_;
    }
    std::string string_literal() {
        skip_space();
        if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) fail("malformed header");
        const char quote = s_[i_++];
        const size_t end = s_.find(quote, i_);
        if (end == std::string::npos) fail("malformed header (unterminated string)");
        std::string value = s_.substr(i_, end - i_);
        i_ = end + 1;
        return value;
    }
    bool boolean() {
        skip_space();
        for (const char* word : {"True", "False"}) {
            const size_t n = std::strlen(word);
            if (s_.compare(i_, n, word) == 0) {
                i_ += n;
                return word[0] == 'T';
            }
        }
        fail("malformed header (fortran_order is not True or False)");
    }
    Shape int_tuple() {
        Shape dims;
        expect('(');
        while (!peek(')')) {
            uint64_t v = 0;
            size_t digits = 0;
            for (; i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])); ++i_) {
                if (v > (static_cast<uint64_t>(INT64_MAX) - 9) / 10) fail("extent too large");
                v = v * 10 + static_cast<uint64_t>(s_[i_] - '0');
                ++digits;
            }
            if (digits == 0) fail("malformed header (shape is not a tuple of integers)");
            dims.push_back(static_cast<int64_t>(v));
            if (!peek(')')) expect(',');
        }
        expect(')');
        return dims;
    }

    const std::string& s_;
    const std::string& name_;
    size_t i_ = 0;
};

int32_t dtype_of_descr(const std::string& descr, const std::string& name) {
    const std::string where = name + ": dtype '" + descr + "'";
    if (descr.size() >= 2 && (descr[1] == 'O' || descr[0] == 'O'))
        throw NpyError(where + ": object arrays are not supported");
    if (descr.size() != 3) throw NpyError(where + " is not supported");
    const std::string code = descr.substr(1);
    for (const DescrName& d : kDescrs) {
        if (code != d.code) continue;
        const bool one_byte = code[1] == '1';
        if (descr[0] == '>' && !one_byte)
            throw NpyError(where + ": big-endian data is not supported");
        if (descr[0] != '<' && descr[0] != '|' && !(one_byte && descr[0] == '>'))
            throw NpyError(where + ": unknown byte order '" + descr.substr(0, 1) + "'");
        return d.dtype;
    }
    throw NpyError(where + " is not supported (bool, i1..u8, f2, f4, f8 are)");
}

uint64_t read_le(const std::vector<unsigned char>& b, size_t at, size_t n) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k) v |= static_cast<uint64_t>(b[at + k]) << (8 * k);
    return v;
}

// Element count of a shape, or false on overflow.
bool element_count(const Shape& shape, uint64_t* count) {
    uint64_t n = 1;
    for (int64_t d : shape) {
        const uint64_t e = static_cast<uint64_t>(d);
        if (e != 0 && n > UINT64_MAX / e) return false;
        n *= e;
    }
    *count = n;
    return true;
}

// The bytes before the header text: magic, version, header length. Needs
// the first 12 bytes (or all there are); returns where the text starts and
// how long it is.
void parse_preamble(const std::vector<unsigned char>& bytes, const std::string& name, size_t* header_start,
                    uint64_t* header_len) {
    if (!little_endian_host()) throw NpyError("bcast run supports little-endian hosts only");
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw NpyError(name + ": not a .npy file (no \\x93NUMPY magic)");
    if (bytes.size() < 10) throw NpyError(name + ": truncated header");
    const unsigned major = bytes[6];
    if (major < 1 || major > 3)
        throw NpyError(name + ": unsupported .npy version " + std::to_string(major) + "." +
                       std::to_string(bytes[7]));
    const size_t len_size = major == 1 ? 2 : 4;
    *header_start = 8 + len_size;
    if (bytes.size() < *header_start) throw NpyError(name + ": truncated header");
    *header_len = read_le(bytes, 8, len_size);
}

// The array's dtype and shape from the header text (data empty), and the
// data's byte size.
NpyArray parse_header(const std::string& header, const std::string& name, uint64_t* data_size) {
    // numpy's header is printable text ending in spaces and a newline.
    if (header.find('\0') != std::string::npos)
        throw NpyError(name + ": not a supported .npy file: a NUL byte in the header");
    std::string descr;
    bool fortran = false;
    NpyArray array;
    HeaderParser(header, name).parse(&descr, &fortran, &array.shape);
    array.dtype = dtype_of_descr(descr, name);
    if (fortran && array.shape.size() > 1)
        throw NpyError(name + ": Fortran-order arrays are not supported (save a C-order copy)");
    if (array.shape.size() > BCAST_MAX_RANK)
        throw NpyError(name + ": rank " + std::to_string(array.shape.size()) + " exceeds " +
                       std::to_string(BCAST_MAX_RANK));

    uint64_t count = 0;
    const uint64_t item = bcast_dtype_size(array.dtype);
    if (!element_count(array.shape, &count) || count > UINT64_MAX / item)
        throw NpyError(name + ": the array's byte size overflows");
    *data_size = count * item;
    return array;
}

void check_data_size(uint64_t available, uint64_t data_size, const std::string& name) {
    if (available < data_size)
        throw NpyError(name + ": truncated: the header promises " + std::to_string(data_size) +
                       " bytes of data, the file has " + std::to_string(available));
    if (available > data_size)
        throw NpyError(name + ": " + std::to_string(available - data_size) +
                       " unexpected bytes after the array data");
}

// Reads up to n more bytes of f onto the end of bytes; false on a read error.
bool read_more(FILE* f, uint64_t n, std::vector<unsigned char>& bytes) {
    unsigned char chunk[1 << 16];
    while (n > 0) {
        const size_t got = std::fread(chunk, 1, n < sizeof chunk ? static_cast<size_t>(n) : sizeof chunk, f);
        bytes.insert(bytes.end(), chunk, chunk + got);
        if (got == 0) return std::ferror(f) == 0;
        n -= got;
    }
    return true;
}

}  // namespace

std::vector<unsigned char> format_npy(const NpyArray& array) {
    std::string descr;
    for (const DescrName& d : kDescrs)
        if (d.dtype == array.dtype) descr = std::string(d.code[1] == '1' ? "|" : "<") + d.code;
    if (descr.empty())
        throw NpyError(std::string("dtype ") + std::to_string(array.dtype) +
                       " has no .npy equivalent");
    std::string shape = "(";
    for (size_t i = 0; i < array.shape.size(); ++i) {
        if (i) shape += ", ";
        shape += std::to_string(array.shape[i]);
    }
    shape += array.shape.size() == 1 ? ",)" : ")";  // Python's (5,)
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces and a final '\n' so the data start on a 64-byte boundary.
    const bool v2 = header.size() + 1 + 10 > 65535;
    const size_t prefix = v2 ? 12 : 10;
    const size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
    header.append(total - prefix - header.size() - 1, ' ');
    header.push_back('\n');

    std::vector<unsigned char> out(kMagic, kMagic + sizeof kMagic);
    out.push_back(v2 ? 2 : 1);
    out.push_back(0);
    for (size_t k = 0; k < prefix - 8; ++k)
        out.push_back(static_cast<unsigned char>((header.size() >> (8 * k)) & 0xFF));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), array.data.begin(), array.data.end());
    return out;
}

namespace {

// The one reader of .npy streams: the header first, then only as many
// bytes as it promises (and a bounded look past them, to see that the
// stream ends there), so that a file that is not a .npy (/dev/zero, a large
// file of something else) is refused before it is read whole.
NpyArray read_npy_stream(FILE* f, const std::string& name) {
    std::vector<unsigned char> bytes;
    const auto read_to = [&](uint64_t total) {  // until bytes holds total, or the stream ends
        if (bytes.size() < total && !read_more(f, total - bytes.size(), bytes))
            throw NpyError(name + ": " + std::strerror(errno));
    };
    size_t header_start = 0;
    uint64_t header_len = 0, data_size = 0;
    read_to(12);
    parse_preamble(bytes, name, &header_start, &header_len);
    // numpy writes headers of a few hundred bytes (its reader refuses more
    // than 10,000 by default); bcast's own stay under 64 KiB.
    constexpr uint64_t kMaxHeader = 1 << 20;
    if (header_len > kMaxHeader)
        throw NpyError(name + ": not a supported .npy file: a header of " + std::to_string(header_len) + " bytes");
    read_to(header_start + header_len);
    if (bytes.size() < header_start + header_len) throw NpyError(name + ": truncated header");
    NpyArray array = parse_header(std::string(bytes.begin() + static_cast<std::ptrdiff_t>(header_start),
                                              bytes.begin() + static_cast<std::ptrdiff_t>(header_start + header_len)),
                                  name, &data_size);
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(header_start + header_len));
    // A file shorter than its promise is refused before its bytes are read.
    struct stat st {};
    if (::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        const auto in_file = static_cast<uint64_t>(st.st_size) - std::min<uint64_t>(static_cast<uint64_t>(st.st_size), header_start + header_len);
        if (in_file < data_size) check_data_size(in_file, data_size, name);
    }
    read_to(data_size < UINT64_MAX ? data_size + 1 : data_size);
    if (bytes.size() > data_size) {  // bytes after the data: counted up to a bound
        constexpr uint64_t kCounted = 1 << 16;
        read_to(data_size + kCounted + 1);
        if (bytes.size() > data_size + kCounted)
            throw NpyError(name + ": more than " + std::to_string(kCounted) + " unexpected bytes after the array data");
    }
    check_data_size(bytes.size(), data_size, name);
    array.data = std::move(bytes);
    return array;
}

// Closes a stream it opened (not stdin) when the read ends, however it ends.
struct Closer {
    FILE* f;
    ~Closer() {
        if (f != stdin) std::fclose(f);
    }
};

}  // namespace

NpyArray parse_npy(const std::vector<unsigned char>& bytes, const std::string& name) {
    if (bytes.empty()) throw NpyError(name + ": not a .npy file (no \\x93NUMPY magic)");
    FILE* f = ::fmemopen(const_cast<unsigned char*>(bytes.data()), bytes.size(), "rb");
    if (!f) throw NpyError(name + ": " + std::strerror(errno));
    const Closer closer{f};
    return read_npy_stream(f, name);
}

NpyArray read_npy(const std::string& path) {
    FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) throw NpyError(path + ": " + std::strerror(errno));
    const Closer closer{f};
    return read_npy_stream(f, path);
}

void write_npy(const std::string& path, const NpyArray& array) {
    const std::vector<unsigned char> bytes = format_npy(array);
    if (path != "-") {  // a failed write leaves the file as it was
        const std::string failed = write_file_whole(path, bytes.data(), bytes.size());
        if (!failed.empty()) throw NpyError(failed);
        return;
    }
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size();
    if (std::fflush(stdout) != 0 || !ok) throw NpyError(std::string("-: ") + std::strerror(errno));
}

}  // namespace bcast_cli
