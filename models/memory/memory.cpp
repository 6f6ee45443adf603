#include "memory.h"

#include "base/slot_calendar.h"
#include "base/txn_ext.h"
#include "host/pages.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace npu::memory {

namespace {
// s[i] = (s[i] & keep) | set for i < n: every DMA push and completion marks
// its whole destination's shadow (a megabyte per mlp_f32 run), every heap
// block its own. 64 bytes a step in the compiler's generic vectors (four
// SSE2 operations in baseline x86-64), compiled for the host's widest
// vectors too and picked by the loader (as the SA's data movement,
// models/accel/sa_tlm_engine.cpp): one AVX-512 operation a step there.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
[[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]]
#endif
void mask_bytes(unsigned char* s, std::uint64_t n, unsigned char keep, unsigned char set) {
    using bytes64 = unsigned char __attribute__((vector_size(64)));
    using bytes16 = unsigned char __attribute__((vector_size(16)));
    std::uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        bytes64 v;
        std::memcpy(&v, s + i, 64);
        v = (v & keep) | set;
        std::memcpy(s + i, &v, 64);
    }
    for (; i + 16 <= n; i += 16) {
        bytes16 v;
        std::memcpy(&v, s + i, 16);
        v = (v & keep) | set;
        std::memcpy(s + i, &v, 16);
    }
    for (; i < n; ++i) s[i] = static_cast<unsigned char>((s[i] & keep) | set);
}
}  // namespace

memory::memory(sc_core::sc_module_name nm, const cfg::config& cfg, const std::string& section)
    : base::component(nm, cfg, section), socket("socket") {
    size_ = cfg.size(section + ".size");
    latency_cycles_ = cfg.cycles(section + ".latency");
    bandwidth_ = cfg.size(section + ".bandwidth");
    sparse_ = cfg.choice(section + ".storage") == "sparse";
    // From the config, not from the context's services: whoever sets those
    // up need not do it before the memories are built.
    shadowed_ = cfg.choice("soc.memcheck") != "off";
    traffic_id_ = context().traffic.add_target(section);
    extra_latency_ = cycles(latency_cycles_ ? latency_cycles_ - 1 : 0);
    bandwidth_div_ = base::divisor(bandwidth_);
    port_free_ = sc_core::SC_ZERO_TIME;
    if (cfg::platform_schema().find(section + ".interface") && cfg.choice(section + ".interface") == "psram") {
        const double pin_hz = static_cast<double>(cfg.frequency_hz(section + ".psram_clock"));
        const double bytes_per_clock = static_cast<double>(cfg.count(section + ".psram_bytes_per_clock"));
        psram_byte_ = sc_core::sc_time(1.0 / (pin_hz * bytes_per_clock), sc_core::SC_SEC);
        psram_command_ = sc_core::sc_time(static_cast<double>(cfg.count(section + ".psram_latency")) / pin_hz,
                                          sc_core::SC_SEC);
        psram_page_ = cfg.size(section + ".page_size");
    }
    if (cfg::platform_schema().find(section + ".banks")) {
        banks_ = cfg.count(section + ".banks");
        bank_width_ = cfg.size(section + ".bank_width");
        bank_shift_ = static_cast<unsigned>(__builtin_ctzll(bank_width_));
        // The banks are the SoC's one L1: the cores book the same calendar.
        calendar_ = &context().shared<base::l1_bank_calendar>();
        calendar_->init(cfg);
    }

    socket.register_b_transport(this, &memory::b_transport);
    socket.register_get_direct_mem_ptr(this, &memory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &memory::transport_dbg);

    if (sparse_) {
        pages_.resize((size_ + page_size - 1) / page_size);
        static_assert(page_size % (std::uint64_t{1} << clean_shift) == 0, "a block lies in one page");
        if (shadowed_) clean_.assign((size_ + (std::uint64_t{1} << clean_shift) - 1) >> clean_shift, block_unknown);
    } else {
        dense_ = host::zeroed_block(size_);
        if (shadowed_) {
            dense_shadow_ = host::zeroed_block(size_);
            clean_.assign((size_ + (std::uint64_t{1} << clean_shift) - 1) >> clean_shift, block_unknown);
        }
        services().register_host_range({dense_.data(), size_, shadowed_ ? dense_shadow_.data() : nullptr, traffic_id_});
        // The cluster's L1 (banked): every run touches most of it -- stacks,
        // heap blocks, DMA tiles, SA operands -- and each first touch of a
        // host page (its data or its shadow) was a page fault in the middle
        // of the simulation (about 90 of mlp_f32's 121 in the run). Mapped
        // here, before the run, in one call per block. Not L2 or L3: a run
        // touches a fraction of them, and mapping all of L2 as well gained
        // nothing measurable.
        if (banks_ && size_ <= populate_limit) {
            host::populate_pages(dense_.data(), size_);
            if (shadowed_) host::populate_pages(dense_shadow_.data(), size_);
        }
    }

    add_stat("reads", reads_, "transactions", "b_transport reads (DMI accesses are counted by initiators)");
    add_stat("writes", writes_, "transactions", "b_transport writes");
    add_stat("bytes_read", bytes_read_, "B", "bytes read through b_transport");
    add_stat("bytes_written", bytes_written_, "B", "bytes written through b_transport");
    add_stat("dmi_grants", dmi_grants_, "grants", "DMI windows handed out");
    add_stat("pages_allocated", pages_allocated_, "pages", "sparse pages allocated on touch");
    if (banks_) {
        add_stat("bank_conflicts", bank_conflicts_, "words", "words of b_transport bursts that waited for a busy bank");
        add_stat("bank_stall_cycles", bank_stall_cycles_, "cycles", "cycles words waited for busy banks");
    }
    if (psram_page_) {
        add_stat("psram_transactions", psram_transactions_, "bursts", "b_transport bursts on the PSRAM pins");
        add_stat("psram_page_crossings", psram_page_crossings_, "pages",
                 "extra transactions of bursts crossing a PSRAM page boundary");
    }
    add_stat("uninit_reads", uninit_reads_, "reads", "b_transport reads of never-written bytes (memcheck)");
}

std::uint64_t memory::allocated_bytes() const { return sparse_ ? pages_allocated_ * page_size : size_; }

unsigned char* memory::page(std::uint64_t offset, bool create, unsigned char** shadow) {
    if (!sparse_) {
        if (shadow) *shadow = shadowed_ ? dense_shadow_.data() + offset : nullptr;
        return dense_.data() + offset;
    }
    sparse_page& p = pages_[offset / page_size];
    if (!p.data) {
        if (!create) {
            if (shadow) *shadow = nullptr;
            return nullptr;
        }
        p.data.reset(new unsigned char[page_size]());
        if (shadowed_) p.shadow.reset(new unsigned char[page_size]());
        ++pages_allocated_;
        services().register_host_range({p.data.get(), page_size, p.shadow.get(), traffic_id_});
    }
    std::uint64_t in_page = offset % page_size;
    if (shadow) *shadow = p.shadow ? p.shadow.get() + in_page : nullptr;
    return p.data.get() + in_page;
}

void memory::copy(std::uint64_t offset, unsigned char* data, std::uint64_t len, bool write) {
    while (len) {
        std::uint64_t chunk = sparse_ ? std::min(len, page_size - offset % page_size) : len;
        unsigned char* shadow = nullptr;
        // A read of an untouched sparse page reads zeros without allocating it.
        unsigned char* host = page(offset, write, &shadow);
        if (write) {
            std::memcpy(host, data, chunk);
            if (shadow) {
                std::memset(shadow, 1, chunk);
                clean_blocks(offset, chunk);
            }
        } else if (host) {
            std::memcpy(data, host, chunk);
        } else {
            std::memset(data, 0, chunk);
        }
        offset += chunk;
        data += chunk;
        len -= chunk;
    }
}

bool memory::all_written(std::uint64_t offset, std::uint64_t len) {
    for (std::uint64_t a = offset, end = offset + len; a < end;) {
        const std::uint64_t b = a >> clean_shift, block_end = std::min((b + 1) << clean_shift, size_);
        const std::uint64_t upto = std::min(end, block_end);
        unsigned char& state = clean_[b];
        if (state != block_clean) {
            // The block's shadow: where its page keeps it (a page never
            // touched has none: nothing in it is written).
            const std::uint64_t first = b << clean_shift;
            const unsigned char* block;
            if (sparse_) {
                const sparse_page& p = pages_[first / page_size];
                if (!p.shadow) return false;
                block = p.shadow.get() + first % page_size;
            } else {
                block = dense_shadow_.data() + first;
            }
            if (state == block_unknown) {
                // Once per change: the whole block, so that the next reads
                // of any of its bytes need not look.
                state = base::first_not_written(block, block_end - first) == block_end - first ? block_clean
                                                                                              : block_mixed;
            }
            if (state != block_clean && base::first_not_written(block + (a - first), upto - a) < upto - a)
                return false;
        }
        a = upto;
    }
    return true;
}

std::uint64_t memory::first_unwritten(std::uint64_t offset, std::uint64_t len) const {
    // Never written, or a DMA in flight has yet to write it; page by page.
    for (std::uint64_t a = offset; a < offset + len;) {
        const std::uint64_t chunk = sparse_ ? std::min(offset + len - a, page_size - a % page_size) : offset + len - a;
        const unsigned char* s = nullptr;
        if (!sparse_) {
            s = dense_shadow_.data() + a;
        } else {
            const sparse_page& p = pages_[a / page_size];
            if (!p.shadow) return a;
            s = p.shadow.get() + a % page_size;
        }
        if (const std::size_t i = base::first_not_written(s, chunk); i < chunk) return a + i;
        a += chunk;
    }
    return UINT64_MAX;
}

bool memory::initialized(std::uint64_t offset, std::uint64_t len) const {
    return shadowed_ && first_unwritten(offset, len) == UINT64_MAX;
}

bool memory::written_mask(std::uint64_t offset, std::uint64_t len, unsigned char* mask) const {
    if (!shadowed_ || offset > size_ || len > size_ - offset) return false;
    // A DMA still in flight (bit 1) has not written the byte yet. Dense
    // storage in one loop the compiler vectorises (a layer's output is read
    // at every layer's end).
    if (!sparse_) {
        const unsigned char* s = dense_shadow_.data() + offset;
        for (std::uint64_t i = 0; i < len; ++i) mask[i] = s[i] == base::shadow_written;
        return true;
    }
    for (std::uint64_t i = 0; i < len; ++i) mask[i] = shadow_at(offset + i) == base::shadow_written;
    return true;
}

template <class F>
void memory::edit_shadow(std::uint64_t offset, std::uint64_t len, F f) {
    if (!shadowed_ || offset >= size_) return;
    len = std::min(len, size_ - offset);
    while (len) {
        const std::uint64_t chunk = sparse_ ? std::min(len, page_size - offset % page_size) : len;
        unsigned char* shadow = nullptr;
        page(offset, false, &shadow);  // an untouched sparse page is never-written already
        if (shadow) f(shadow, chunk);
        offset += chunk;
        len -= chunk;
    }
}

void memory::mark_unwritten(std::uint64_t offset, std::uint64_t len) {
    dirty_blocks(offset, len);
    edit_shadow(offset, len,
                [](unsigned char* s, std::uint64_t n) { mask_bytes(s, n, base::shadow_in_flight, 0); });
}

void memory::mark_freed(std::uint64_t offset, std::uint64_t len) {
    dirty_blocks(offset, len);
    edit_shadow(offset, len, [](unsigned char* s, std::uint64_t n) {
        mask_bytes(s, n, base::shadow_in_flight, base::shadow_freed);
    });
}

void memory::clear_freed(std::uint64_t offset, std::uint64_t len) {
    dirty_blocks(offset, len);
    edit_shadow(offset, len, [](unsigned char* s, std::uint64_t n) {
        mask_bytes(s, n, static_cast<unsigned char>(~base::shadow_freed), 0);
    });
}

void memory::mark_redzone(std::uint64_t offset, std::uint64_t len) {
    dirty_blocks(offset, len);
    edit_shadow(offset, len, [](unsigned char* s, std::uint64_t n) {
        mask_bytes(s, n, static_cast<unsigned char>(~base::shadow_freed), base::shadow_redzone);
    });
}

std::uint64_t memory::first_marked(std::uint64_t offset, std::uint64_t len, unsigned char bit) const {
    if (!shadowed_ || offset >= size_) return UINT64_MAX;
    len = std::min(len, size_ - offset);
    // Once per DMA push or SA start and row, over the few ranges soc's
    // indexes say may hold the mark: a byte at a time is enough.
    for (std::uint64_t i = 0; i < len; ++i)
        if (shadow_at(offset + i) & bit) return offset + i;
    return UINT64_MAX;
}

void memory::mark_zeroed(std::uint64_t offset, std::uint64_t len) {
    dirty_blocks(offset, len);
    edit_shadow(offset, len, [](unsigned char* s, std::uint64_t n) {
        for (std::uint64_t i = 0; i < n; ++i)
            if (s[i] == base::shadow_written) s[i] = base::shadow_zeroed;
    });
}

void memory::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t offset = t.get_address();
    const std::uint64_t len = t.get_data_length();
    if (offset >= size_ || len > size_ - offset) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (t.get_byte_enable_ptr()) {
        t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (t.get_streaming_width() < len) {
        t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    auto* ext = t.get_extension<base::txn_ext>();
    const auto st = access(t.get_command(), offset, t.get_data_ptr(), len, delay, ext);
    if (!ext || ext->booking != base::txn_ext::bank_booking::ahead) t.set_dmi_allowed(true);
    t.set_response_status(st);
}

tlm::tlm_response_status memory::burst(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data, unsigned len,
                                       sc_core::sc_time& delay, base::txn_ext& ext) {
    // A burst carries no byte enables and streams its whole length: only
    // the bounds are b_transport's to check.
    if (offset >= size_ || len > size_ - offset) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    return access(cmd, offset, data, len, delay, &ext);
}

bool memory::stream(bool write, std::uint64_t offset, unsigned char* data, unsigned len, sc_core::sc_time& delay,
                    const sc_core::sc_time& now, std::uint64_t beat_bytes, base::traffic_counters& traffic) {
    // access() with a normal booking, minus what only a finding or the
    // extension needs: a read of a byte not written yet goes through
    // access(), which reports it, as does a burst past the end (a window
    // larger than the memory), which burst() refuses.
    if (offset >= size_ || len > size_ - offset) return false;
    if (!sparse_) {
        // Dense storage (L1, L2): one block, no pages to walk.
        unsigned char* const host = dense_.data() + offset;
        unsigned char* const shadow = shadowed_ ? dense_shadow_.data() + offset : nullptr;
        if (write) {
            std::memcpy(host, data, len);
            if (shadow) {
                std::memset(shadow, base::shadow_written, len);
                clean_blocks(offset, len);
            }
        } else {
            if (shadow && services().memcheck() != base::memcheck_mode::off && !all_written(offset, len))
                return false;
            std::memcpy(data, host, len);
        }
    } else {
        if (!write && shadowed_ && services().memcheck() != base::memcheck_mode::off && !all_written(offset, len))
            return false;
        copy(offset, data, len, write);
    }
    delay += burst_time(offset, len, now + delay, beat_bytes);
    count(write, len);
    if (traffic_id_ >= 0) (write ? traffic.write_bytes : traffic.read_bytes)[traffic_id_] += len;
    return true;
}

void memory::prefetch(std::uint64_t offset, unsigned len) {
    // Dense storage only (a sparse page may not exist yet). A weight tile's
    // rows come from all over a large L2: without it, the next burst's
    // first reads of its data and shadow wait for the host's memory.
    if (sparse_ || offset >= size_ || len == 0) return;
    const std::uint64_t end = std::min<std::uint64_t>(size_, offset + len);
    for (std::uint64_t a = offset & ~std::uint64_t{63}; a < end; a += 64) {
        __builtin_prefetch(dense_.data() + a);
        // A clean block's shadow is not read (all_written).
        if (shadowed_ && clean_[a >> clean_shift] != block_clean) __builtin_prefetch(dense_shadow_.data() + a);
    }
}

tlm::tlm_response_status memory::access(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data,
                                        std::uint64_t len, sc_core::sc_time& delay, base::txn_ext* ext) {
    const auto booking = ext ? ext->booking : base::txn_ext::bank_booking::normal;
    if (booking == base::txn_ext::bank_booking::ahead) {
        // Timing only: the banks are booked now, the data comes later.
        delay += burst_time(offset, len, base::sim_time() + delay, ext->beat_bytes);
        return tlm::TLM_OK_RESPONSE;
    }
    const bool write = cmd == tlm::TLM_WRITE_COMMAND;
    if (!write && shadowed_ && services().memcheck() != base::memcheck_mode::off) {
        // The blocks' summaries first (clean_), the bytes only where they
        // do not say all written.
        std::uint64_t bad = all_written(offset, len) ? UINT64_MAX : first_unwritten(offset, len);
        // In flight for a writer that has in fact finished (an ended SA job): released, no finding.
        const auto& ended = services().in_flight_ended;
        if (bad != UINT64_MAX && (shadow_at(bad) & base::shadow_in_flight) && ended &&
            ended(bad - offset + (ext ? ext->bus_address : offset)))
            bad = first_unwritten(offset, len);
        if (bad != UINT64_MAX) {
            ++uninit_reads_;
            base::memcheck_info m;
            m.who = ext ? ext->who : nullptr;
            m.pc = ext ? ext->pc : 0;
            m.has_pc = ext && ext->has_pc;
            // Report the bus address: the router rewrote ours to an offset.
            m.address = bad - offset + (ext ? ext->bus_address : offset);
            m.size = static_cast<unsigned>(len);
            m.access = ext ? ext->bus_address : offset;
            for (std::uint64_t a = bad; a < offset + len; ++a) m.unwritten += shadow_at(a) != base::shadow_written;
            m.in_flight = (shadow_at(bad) & 2) != 0;
            m.zeroed_only = shadow_at(bad) == base::shadow_zeroed;
            base::heap_overflow_read(m, shadow_at(bad), services());
            services().memcheck_finding(m);
        }
    }
    copy(offset, data, len, write);

    if (booking != base::txn_ext::bank_booking::booked)
        delay += burst_time(offset, len, base::sim_time() + delay, ext ? ext->beat_bytes : 0);

    count(write, len);
    if (ext) ext->traffic_id = traffic_id_;
    return tlm::TLM_OK_RESPONSE;
}

sc_core::sc_time memory::burst_time(std::uint64_t offset, std::uint64_t len, const sc_core::sc_time& arrive,
                                    std::uint64_t beat_bytes) {
    if (psram_page_) {
        // PSRAM: the pins carry one transaction at a time, whoever issues it
        // (all DMA channels share them): command, address and initial
        // latency, then the bytes at the pin rate; a burst crossing a page
        // boundary is re-issued as one transaction per page. The last byte
        // ends the access (no latency on top: the pins' latency is the
        // command's).
        const std::uint64_t pages = (offset + len - 1) / psram_page_ - offset / psram_page_ + 1;
        const sc_core::sc_time start = std::max(arrive, port_free_);
        port_free_ = start + psram_command_ * static_cast<double>(pages) + psram_byte_ * static_cast<double>(len);
        ++psram_transactions_;
        psram_page_crossings_ += pages - 1;
        return port_free_ - arrive;
    }
    // An uncontended access of one beat costs the latency; each further beat
    // one cycle.
    if (!banks_) {
        // One port, one burst at a time: a burst arriving while the port is
        // busy waits for it (contention), then streams at the bandwidth.
        const std::uint64_t beats = bandwidth_div_.div_up(len);
        const sc_core::sc_time start = std::max(arrive, port_free_);
        port_free_ = start + cycles(beats);
        return (port_free_ - arrive) + extra_latency_;
    }
    // Banked: the initiator's port issues width/bank_width words per cycle, in order
    // (width: its own beat width if it has one, else the port's bandwidth);
    // word i books its bank (address / bank_width) % banks in the SoC's bank
    // calendar, which serves one access per cycle whoever issues it. The
    // burst ends when its last word has been served.
    const std::uint64_t width = beat_bytes ? beat_bytes : bandwidth_;
    const std::uint64_t words_per_cycle = std::max<std::uint64_t>(1, width >> bank_shift_);
    const std::uint64_t first = offset >> bank_shift_, last = (offset + len - 1) >> bank_shift_;
    const std::uint64_t arrive_cycle = cycle_of(arrive);
    std::uint64_t end = arrive_cycle;
    // The words up to the first that finds its bank busy go out exactly at
    // their issue cycles: booked as one run (most bursts are uncontended).
    const std::uint64_t words = last - first + 1;
    // Consecutive words are in consecutive banks (bank_width is the calendar's l1.bank_width).
    const std::uint64_t free_run = calendar_->banks.reserve_free_run(
        words, words_per_cycle, arrive_cycle, calendar_->bank_of(first * bank_width_), calendar_->bank_mask);
    if (free_run == words) return cycles(base::div_lanes(words - 1, words_per_cycle) + 1) + extra_latency_;
    if (free_run) end = arrive_cycle + (free_run - 1) / words_per_cycle + 1;
    // The port's lanes stay in order: a word that waited delays the next
    // words of its lane.
    const std::uint64_t banks = std::uint64_t{calendar_->bank_mask} + 1;
    if (banks % words_per_cycle == 0) {
        // Each lane's words are in banks of their own (word w - first goes
        // out on lane (w - first) % words_per_cycle to bank w % banks, and
        // the lanes divide the banks): the lanes book independently of each
        // other, lane by lane, with the same result as word by word. In a
        // lane, the word after one that waited is issued the cycle after it
        // was served (its own issue cycle is never later), so the lane goes
        // on as a run of one word per cycle, its banks words_per_cycle
        // apart: booked as runs (reserve_stride_run) between the words that
        // find their cycle taken and wait (reserve).
        const auto step = static_cast<unsigned>(words_per_cycle);
        for (std::uint64_t j = 0; j < words_per_cycle && free_run + j < words; ++j) {
            const std::uint64_t i0 = free_run + j;
            std::uint64_t left = (words - i0 + words_per_cycle - 1) / words_per_cycle;
            std::uint64_t cycle = arrive_cycle + i0 / words_per_cycle;
            unsigned bank = calendar_->bank_of((first + i0) * bank_width_);
            while (left) {
                const std::uint64_t run =
                    calendar_->banks.reserve_stride_run(left, cycle, bank, step, calendar_->bank_mask);
                cycle += run;
                bank = static_cast<unsigned>((bank + run * step) & calendar_->bank_mask);
                if ((left -= run) == 0) break;
                const std::uint64_t served = calendar_->banks.reserve(bank, cycle);
                if (served != cycle) {
                    ++bank_conflicts_;
                    bank_stall_cycles_ += served - cycle;
                }
                cycle = served + 1;
                bank = (bank + step) & calendar_->bank_mask;
                --left;
            }
            end = std::max(end, cycle);
        }
        return cycles(end - arrive_cycle) + extra_latency_;
    }
    // Word w - first goes out on lane (w - first) % words_per_cycle in cycle
    // (w - first) / words_per_cycle after arrival, counted without a division
    // per word; the lanes' buffer is kept between bursts (no allocation per burst).
    // A lane's free cycle after the run's words (served at their issue
    // cycles) is never later than its next word's issue cycle: arrival will do.
    lane_free_.assign(std::min<std::uint64_t>(words_per_cycle, words), arrive_cycle);
    std::uint64_t lane_index = free_run % words_per_cycle, step = free_run / words_per_cycle;
    for (std::uint64_t w = first + free_run; w <= last; ++w) {
        std::uint64_t& lane = lane_free_[lane_index];
        const std::uint64_t issue = std::max(arrive_cycle + step, lane);
        if (++lane_index == words_per_cycle) lane_index = 0, ++step;
        const std::uint64_t served = calendar_->banks.reserve(calendar_->bank_of(w * bank_width_), issue);
        if (served != issue) {
            ++bank_conflicts_;
            bank_stall_cycles_ += served - issue;
        }
        lane = served + 1;
        end = std::max(end, served + 1);
    }
    return cycles(end - arrive_cycle) + extra_latency_;
}

bool memory::get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& d) {
    const std::uint64_t offset = t.get_address();
    if (offset >= size_) return false;
    std::uint64_t start = 0, end = size_ - 1;
    if (sparse_) {
        start = offset - offset % page_size;
        end = std::min(start + page_size, size_) - 1;
    }
    d.set_dmi_ptr(page(start, true, nullptr));
    d.set_start_address(start);
    d.set_end_address(end);
    d.allow_read_write();
    d.set_read_latency(cycles(latency_cycles_));
    d.set_write_latency(cycles(latency_cycles_));
    ++dmi_grants_;
    return true;
}

unsigned char memory::shadow_at(std::uint64_t offset) const {
    if (!sparse_) return dense_shadow_.data()[offset];
    const sparse_page& p = pages_[offset / page_size];
    return p.shadow ? p.shadow[offset % page_size] : 0;
}

void memory::mark_in_flight(std::uint64_t offset, std::uint64_t len, bool on) {
    if (on) dirty_blocks(offset, len);
    while (len) {
        const std::uint64_t chunk = sparse_ ? std::min(len, page_size - offset % page_size) : len;
        unsigned char* shadow = nullptr;
        // A sparse page gets its shadow now: the mark must survive until the write.
        page(offset, true, &shadow);
        if (shadow)
            mask_bytes(shadow, chunk, on ? 0xFF : static_cast<unsigned char>(~base::shadow_in_flight),
                       on ? base::shadow_in_flight : 0);
        offset += chunk;
        len -= chunk;
    }
}

unsigned memory::transport_dbg(tlm::tlm_generic_payload& t) {
    const std::uint64_t offset = t.get_address();
    if (offset >= size_) return 0;
    const std::uint64_t len = std::min<std::uint64_t>(t.get_data_length(), size_ - offset);
    auto* ext = t.get_extension<base::txn_ext>();
    if (ext && ext->resolve) {
        ext->resolve->target = this;  // bursts reach this memory directly (base::burst_target)
        return 0;
    }
    if (ext && ext->mark != base::txn_ext::memcheck_mark::none) {
        if (shadowed_) mark_in_flight(offset, len, ext->mark == base::txn_ext::memcheck_mark::in_flight);
        return static_cast<unsigned>(len);
    }
    if (t.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;
    // Debug writes (the ELF loader) count as initialisation for memcheck.
    copy(offset, t.get_data_ptr(), len, t.is_write());
    return static_cast<unsigned>(len);
}

}  // namespace npu::memory
