#include "tarpit/abstraction.hpp"

#include <unordered_map>

#include "tarpit/md5.hpp"

namespace flakescan::tarpit {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

bool outside(const Bounds& e, const Bounds& root) {
  return e.top >= root.bottom || e.left >= root.right || root.top >= e.bottom ||
         root.left >= e.right;
}

// VET's canonical string: act_id, then per kept node "[" id class, children, "]".
std::string canonical_string(const Trace& trace, const UniqueScreen& u,
                             const std::vector<std::pair<std::uint32_t, std::uint32_t>>& label_parts) {
  std::string s = trace.pool.at(u.activity);
  std::vector<std::uint32_t> depths;
  for (Token t : u.tokens) {
    auto depth = static_cast<std::uint32_t>(t & 0xffffu);
    while (!depths.empty() && depths.back() >= depth) {
      s += ']';
      depths.pop_back();
    }
    const auto& [id, cls] = label_parts[t >> 16];
    s += '[';
    s += trace.pool.at(id);
    s += trace.pool.at(cls);
    depths.push_back(depth);
  }
  s.append(depths.size(), ']');
  return s;
}

// Labels: (id, class) -> interned "id/class" label number.
class Labels {
 public:
  explicit Labels(const Trace& trace) : trace_(trace) {}

  std::uint32_t label(std::uint32_t id, std::uint32_t cls) {
    std::uint64_t pair = (std::uint64_t(id) << 32) | cls;
    auto& slot = cache_[(pair * 0x9e3779b97f4a7c15ull) >> 52];
    if (slot.pair == pair) return slot.label;
    auto it = label_of_pair_.find(pair);
    if (it != label_of_pair_.end()) {
      slot = CacheSlot{pair, it->second};
      return it->second;
    }
    std::string text = trace_.pool.at(id) + "/" + trace_.pool.at(cls);
    auto [sit, inserted] = label_of_string_.try_emplace(std::move(text), std::uint32_t(label_parts_.size()));
    if (inserted) label_parts_.emplace_back(id, cls);
    label_of_pair_.emplace(pair, sit->second);
    slot = CacheSlot{pair, sit->second};
    return sit->second;
  }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts() const { return label_parts_; }

 private:
  // Most lookups repeat: a direct-mapped cache in front of the map.
  struct CacheSlot {
    std::uint64_t pair = ~0ull;
    std::uint32_t label = 0;
  };
  const Trace& trace_;
  std::unordered_map<std::uint64_t, std::uint32_t> label_of_pair_;
  std::unordered_map<std::string, std::uint32_t> label_of_string_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> label_parts_;  // label -> (id, class)
  std::vector<CacheSlot> cache_ = std::vector<CacheSlot>(4096);
};

// The pool's "unknown" activity, or -1.
std::uint32_t unknown_activity(const Trace& trace) {
  for (std::uint32_t i = 0; i < trace.pool.size(); ++i)
    if (trace.pool.at(i) == "unknown") return i;
  return std::uint32_t(-1);
}

DropReason drop_reason_of(const Screen& screen, std::uint32_t unknown) {
  if (screen.elements.empty() || !screen.elements[0].has_bounds) return DropReason::no_bounds;
  if (!screen.has_activity) return DropReason::no_activity;
  if (screen.activity == unknown && !screen.focus) return DropReason::unknown_activity;
  return DropReason::kept;
}

// The screen's kept elements as tokens (hidden ones and those outside the root are pruned
// with their subtrees); their hash.
std::uint64_t screen_tokens(const Screen& screen, Labels& labels, std::vector<Token>& tokens) {
  const auto& el = screen.elements;
  const Bounds root = el[0].bounds;
  // A root of zero size (captured mid-layout) disables the bounds check, as in VET.
  const bool check = root.bottom - root.top > 0 && root.right - root.left > 0;
  tokens.clear();
  std::uint64_t h = mix(0, screen.activity);
  for (std::uint32_t k = 0; k < el.size();) {
    const Element& e = el[k];
    if (k > 0 && (e.hidden || !e.has_bounds || (check && outside(e.bounds, root)))) {
      k = e.end > k ? e.end : k + 1;  // prune the whole subtree
      continue;
    }
    Token t = make_token(labels.label(e.id, e.cls), e.depth);
    tokens.push_back(t);
    h = mix(h, t);
    ++k;
  }
  return h;
}

// The unique screens by hash: the index of the one with these tokens, added if new.
class UniqueIndex {
 public:
  std::int32_t find_or_add(Abstraction& out, std::uint32_t activity, const std::vector<Token>& tokens, std::uint64_t h,
                           std::size_t s) {
    std::int32_t found = -1, last = -1;
    if (auto it = by_hash_.find(h); it != by_hash_.end()) {
      for (auto k = std::int32_t(it->second); k >= 0; last = k, k = next_same_hash_[std::size_t(k)]) {
        const auto& u = out.uniques[std::size_t(k)];
        if (u.activity == activity && u.tokens == tokens) {
          found = k;
          break;
        }
      }
    }
    if (found < 0) {
      found = static_cast<std::int32_t>(out.uniques.size());
      if (last >= 0) next_same_hash_[std::size_t(last)] = found;
      else by_hash_.emplace(h, std::uint32_t(found));
      next_same_hash_.push_back(-1);
      out.uniques.push_back(UniqueScreen{activity, tokens, {}, s});
    }
    return found;
  }

 private:
  std::unordered_map<std::uint64_t, std::uint32_t> by_hash_;  // hash -> first unique with it
  std::vector<std::int32_t> next_same_hash_;                   // per unique: the next, or -1
};

// Uniques sharing a key collapse onto the first one seen; renumber densely.
void merge_equal_keys(Abstraction& out) {
  std::unordered_map<std::string, std::int32_t> first_with_key;
  std::vector<std::int32_t> remap(out.uniques.size());
  std::vector<UniqueScreen> kept;
  for (std::size_t i = 0; i < out.uniques.size(); ++i) {
    auto [it, inserted] = first_with_key.try_emplace(out.uniques[i].key, std::int32_t(kept.size()));
    if (inserted) kept.push_back(std::move(out.uniques[i]));
    remap[i] = it->second;
  }
  for (auto& u : out.screen_unique)
    if (u >= 0) u = remap[std::size_t(u)];
  out.uniques = std::move(kept);
}

}  // namespace

std::string_view drop_reason_name(DropReason reason) {
  switch (reason) {
    case DropReason::kept: return "kept";
    case DropReason::no_bounds: return "no root bounds";
    case DropReason::no_activity: return "no activity";
    case DropReason::unknown_activity: return "activity unknown and window not focused";
  }
  return "kept";
}

Abstraction abstract_screens(const Trace& trace, std::size_t begin, std::size_t end,
                             const AbstractionOptions& options) {
  Abstraction out;
  out.screen_unique.assign(trace.screens.size(), -1);
  out.drop_reason.assign(trace.screens.size(), DropReason::kept);
  Labels labels(trace);
  const std::uint32_t unknown = unknown_activity(trace);
  UniqueIndex index;
  std::vector<Token> tokens;
  for (std::size_t s = begin; s < end; ++s) {
    const Screen& screen = trace.screens[s];
    out.drop_reason[s] = drop_reason_of(screen, unknown);
    if (out.drop_reason[s] != DropReason::kept) {
      ++out.dropped;
      continue;
    }
    const std::uint64_t h = screen_tokens(screen, labels, tokens);
    out.screen_unique[s] = index.find_or_add(out, screen.activity, tokens, h, s);
  }

  for (auto& u : out.uniques) u.key = md5_hex(canonical_string(trace, u, labels.parts()));
  if (options.merge_equal_keys) merge_equal_keys(out);
  return out;
}

}  // namespace flakescan::tarpit
