//! The extension's global allocator: mimalloc, called the way Rust's own `System` allocator calls
//! `malloc`. The `mimalloc` crate sends every request through mimalloc's aligned entry points,
//! which cost about three times the plain ones (`mi_malloc` is ~20 instructions on its fast path;
//! `mi_malloc_aligned` averaged 62 over a dense call's ~4,000 allocations), and nearly every
//! request asks for no more alignment than any block already has.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned};
use libmimalloc_sys::{mi_zalloc, mi_zalloc_aligned};

/// mimalloc's blocks of 16 bytes or more start on 16 bytes, smaller ones on 8 (`MI_MAX_ALIGN_SIZE`,
/// asserted in its `alloc.c`), so a request whose alignment is at most 16 and at most its size is
/// met by the plain entry points (the rule `System` applies to glibc's `malloc`).
const PLAIN_ALIGN: usize = 16;

fn plain(align: usize, size: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

pub struct Allocator;

// SAFETY: each method forwards to the mimalloc function with the matching contract; the plain
// functions are used only where their blocks' alignment meets the layout's (`plain`), and every
// block, however allocated, is freed by `mi_free` and resized by `mi_realloc*`, which accept any.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            mi_malloc(layout.size()).cast()
        } else {
            mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            mi_zalloc(layout.size()).cast()
        } else {
            mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr.cast::<c_void>());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(layout.align(), new_size) {
            mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_has_its_layouts_alignment() {
        // Small and large sizes, each alignment from 1 to 4096, grown and shrunk.
        for align in (0..13).map(|shift| 1usize << shift) {
            for size in [1usize, 7, 8, 15, 16, 24, 33, 100, 1000, 5000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: the layout's size is non-zero; the block is freed once, below.
                unsafe {
                    let block = Allocator.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % align, 0, "size {size}, align {align}");
                    block.write_bytes(0xAB, size);
                    let grown = Allocator.realloc(block, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grown {size}, align {align}");
                    assert_eq!(*grown.add(size - 1), 0xAB);
                    let shrunk = Allocator.realloc(grown, layout, size.div_ceil(2));
                    assert_eq!(shrunk as usize % align, 0, "shrunk {size}, align {align}");
                    Allocator.dealloc(shrunk, layout);
                    let zeroed = Allocator.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0);
                    assert!((0..size).all(|at| *zeroed.add(at) == 0));
                    Allocator.dealloc(zeroed, layout);
                }
            }
        }
    }
}
