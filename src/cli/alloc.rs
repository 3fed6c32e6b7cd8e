//! The process's global allocator: mimalloc, called the way its fast paths want.
//!
//! The `mimalloc` crate hands every request to `mi_malloc_aligned`, whatever the alignment. Most of the
//! engine's requests (vectors, strings) need no more than the 8 bytes every mimalloc block has, and
//! plain `mi_malloc` is cheaper; Lua's (made through the script host's allocator) ask for 16, and for a size that
//! is not a multiple of 16 (a Lua table is 56 bytes) mimalloc's aligned fast path often finds a block
//! that is not aligned and falls back to over-allocating. Rounding such a size up to the alignment
//! keeps it on the fast path: mimalloc's blocks of a size that is a multiple of 16 are all 16-aligned,
//! and `mi_malloc_aligned` still checks, so the alignment promised never rests on that.
//!
//! Pages freed are kept, not handed back to the system ([`keep_freed_pages`]): a game frees and
//! allocates its memory over and over, and mimalloc's default (give a page back a second after it empties)
//! made the system zero a fresh page, often a 2 MiB one, each time it was needed again — a thirtieth of
//! a simulation's time, and more with two workers faulting pages at once.

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_option_set, mi_option_t, mi_realloc,
    mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every mimalloc block has, whatever its size (a machine word).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc's `mi_option_purge_delay` (its place in `mi_option_e`, mimalloc.h of mimalloc 3; the
/// crate names no constant for it): how long an emptied page waits before it goes back to the
/// system, -1 for never.
const PURGE_DELAY: mi_option_t = 15;

/// Keep freed pages for reuse instead of giving them back to the system (see the module docs), unless
/// the environment sets mimalloc's own `MIMALLOC_PURGE_DELAY` (which mimalloc then reads as it
/// always does). Called once, first thing in `main`; the process's peak memory is what it holds anyway.
pub fn keep_freed_pages() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: setting an option is valid at any time; mimalloc reads this one when it next purges.
    unsafe { mi_option_set(PURGE_DELAY, -1) }
}

/// mimalloc as the global allocator (see the module docs).
pub struct Mimalloc;

/// `size` rounded up to a multiple of `align` (a power of two), for the aligned calls; `size` itself
/// when rounding would overflow (mimalloc then refuses the request, as it would have anyway).
fn rounded(size: usize, align: usize) -> usize {
    size.checked_add(align - 1)
        .map_or(size, |s| s & !(align - 1))
}

// SAFETY: every call passes mimalloc a size and an alignment that are valid for it (`Layout` makes the
// alignment a power of two), returns null on failure as `GlobalAlloc` requires, and frees only pointers
// mimalloc handed out. A block of a word-aligned request comes from `mi_malloc`, which aligns every
// block to a word; anything wider goes through the aligned calls, which guarantee the alignment.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        if align <= WORD {
            mi_malloc(size).cast()
        } else {
            mi_malloc_aligned(rounded(size, align), align).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        if align <= WORD {
            mi_zalloc(size).cast()
        } else {
            mi_zalloc_aligned(rounded(size, align), align).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let align = layout.align();
        if align <= WORD {
            mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi_realloc_aligned(ptr.cast::<c_void>(), rounded(new_size, align), align).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class and alignment the engine asks for come back aligned, hold what was
    /// written, and keep it through a realloc.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64] {
            for size in (1..=300).chain([1000, 4096, 70_000]) {
                let layout = Layout::from_size_align(size, align).expect("a valid layout");
                // SAFETY: the layout is valid and non-zero in size; each block is freed once.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    std::ptr::write_bytes(p, 0xAB, size);
                    let q = a.realloc(p, layout, size * 2 + 1);
                    assert!(!q.is_null());
                    assert_eq!(
                        q as usize % align,
                        0,
                        "realloc of size {size} align {align}"
                    );
                    assert!((0..size).all(|i| *q.add(i) == 0xAB));
                    a.dealloc(
                        q,
                        Layout::from_size_align(size * 2 + 1, align).expect("valid"),
                    );
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }

    /// The option [`PURGE_DELAY`] names is the purge delay: it starts at mimalloc's documented
    /// default (1000 ms in mimalloc 3's options.c), and [`keep_freed_pages`] sets it to never. (No other test sets it.)
    #[test]
    fn freed_pages_are_kept() {
        // SAFETY: reading and setting an option is valid at any time.
        unsafe {
            assert_eq!(libmimalloc_sys::mi_option_get(PURGE_DELAY), 1000);
            keep_freed_pages();
            assert_eq!(libmimalloc_sys::mi_option_get(PURGE_DELAY), -1);
        }
    }

    #[test]
    fn sizes_round_up_to_the_alignment() {
        assert_eq!(rounded(56, 16), 64);
        assert_eq!(rounded(64, 16), 64);
        assert_eq!(rounded(1, 32), 32);
        assert_eq!(rounded(usize::MAX, 16), usize::MAX);
    }
}
