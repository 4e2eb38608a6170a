#include "driver/search/detail/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace optiml::search::detail {
namespace {

// zlib counts bytes in 32 bits: larger data goes in in pieces.
constexpr std::size_t kMaxPiece = std::size_t{1} << 30;

class Inflater {
  public:
    Inflater() {
        // 16 + MAX_WBITS: gzip's header and trailer (whose CRC is checked) around the data.
        if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK)
            throw std::runtime_error("zlib could not start inflating");
    }
    ~Inflater() { inflateEnd(&stream_); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;

    std::string inflate_all(std::string_view bytes) {
        std::string out;
        std::size_t fed = 0;
        const auto feed = [&] {
            const std::size_t piece = std::min(bytes.size() - fed, kMaxPiece);
            stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + fed));
            stream_.avail_in = static_cast<uInt>(piece);
            fed += piece;
        };
        feed();
        char buffer[1 << 16];
        for (;;) {
            if (stream_.avail_in == 0 && fed < bytes.size()) feed();
            stream_.next_out = reinterpret_cast<Bytef*>(buffer);
            stream_.avail_out = sizeof buffer;
            const int status = inflate(&stream_, Z_NO_FLUSH);
            out.append(buffer, sizeof buffer - stream_.avail_out);
            if (status == Z_OK) continue;
            if (status == Z_STREAM_END) {
                if (stream_.avail_in == 0 && fed < bytes.size()) feed();
                if (stream_.avail_in == 0) return out;
                // Another member follows (gzip files may be concatenated), or what is no gzip.
                const std::string_view rest(reinterpret_cast<const char*>(stream_.next_in),
                                            stream_.avail_in);
                if (!is_gzip(rest))
                    throw std::runtime_error("data after the end of the gzip stream");
                inflateReset(&stream_);
                continue;
            }
            if (status == Z_BUF_ERROR && stream_.avail_in == 0 && fed == bytes.size())
                throw std::runtime_error("truncated: the data ends inside the compressed stream");
            throw std::runtime_error(stream_.msg ? stream_.msg
                                                 : "zlib error " + std::to_string(status));
        }
    }

  private:
    z_stream stream_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view bytes) {
    return Inflater().inflate_all(bytes);
}

}  // namespace optiml::search::detail
