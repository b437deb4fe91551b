#include "markup.h"

namespace salta::markup {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at text[i], or 0 if it is not one
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
size_t SequenceLength(absl::string_view text, size_t i) {
  const unsigned char c = text[i];
  if (c < 0x80) return 1;
  size_t n;
  unsigned min;
  unsigned cp;
  if ((c & 0xE0) == 0xC0) {
    n = 2, min = 0x80, cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, min = 0x800, cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char d = text[i + k];
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  // U+FFFE and U+FFFF are not characters XML allows.
  if (cp == 0xFFFE || cp == 0xFFFF) return 0;
  return n;
}

}  // namespace

std::string ValidText(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = SequenceLength(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    const unsigned char c = text[i];
    if (n == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
    } else if (n == 1 && c == 0x7F) {
      out += kReplacement;
    } else {
      out.append(text.data() + i, n);
    }
    i += n;
  }
  return out;
}

std::string Escape(absl::string_view text) {
  const std::string valid = ValidText(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace salta::markup
