//! The search compiled twice: once for any processor of the target, once
//! with the instructions that make it fast (x86-64: POPCNT, LZCNT, BMI1,
//! BMI2), chosen at run time.
//!
//! The bodies of the recursive searches are `#[inline(always)]` functions
//! generic over a [`Kernel`]; each kernel wraps them in functions compiled
//! with its instruction set, and the bodies recurse through the kernel, so
//! a whole search runs in one instruction set. Everything the bodies call
//! is `#[inline(always)]` and takes on the wrapper's instructions.

use super::last;
use super::nws::{self, Search};
use super::order;
use crate::eval::{Features, Weights};

/// The recursive entry points of the search, in one instruction set.
/// Each takes a null window `alpha, alpha + 1` and returns the value or a
/// bound on the side it fails to (see [`super::nws`]).
pub(super) trait Kernel: Copy + Send + Sync {
    /// 5 to [`nws::SHALLOW`] empty squares, with the parity word of the
    /// empties.
    fn shallow(self, s: &mut Search<'_>, player: u64, opponent: u64, alpha: i32, parity: u8)
        -> i32;
    /// More than [`nws::SHALLOW`] empty squares.
    fn deep(self, s: &mut Search<'_>, player: u64, opponent: u64, alpha: i32) -> i32;
    /// The evaluation searched `depth` moves deep (ordering only).
    #[allow(clippy::too_many_arguments)]
    fn probe(
        self,
        w: &Weights,
        player: u64,
        opponent: u64,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32;
    /// Exactly three empty squares, in search order.
    fn solve_3(self, nodes: &mut u64, player: u64, opponent: u64, alpha: i32, x: [usize; 3])
        -> i32;
    /// Exactly four empty squares, in search order.
    fn solve_4(self, nodes: &mut u64, player: u64, opponent: u64, alpha: i32, x: [usize; 4])
        -> i32;
}

/// Any processor of the target.
#[derive(Clone, Copy)]
pub(super) struct Plain;

impl Kernel for Plain {
    #[inline(never)]
    fn shallow(self, s: &mut Search<'_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
        nws::shallow(self, s, p, o, alpha, parity)
    }
    #[inline(never)]
    fn deep(self, s: &mut Search<'_>, p: u64, o: u64, alpha: i32) -> i32 {
        nws::deep(self, s, p, o, alpha)
    }
    #[inline(never)]
    fn solve_3(self, nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 3]) -> i32 {
        last::solve_3(nodes, p, o, alpha, x)
    }
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn probe(
        self,
        w: &Weights,
        p: u64,
        o: u64,
        f: &Features,
        d: u32,
        a: i32,
        b: i32,
        n: &mut u64,
    ) -> i32 {
        order::probe(self, w, p, o, f, d, a, b, n)
    }
    #[inline(never)]
    fn solve_4(self, nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 4]) -> i32 {
        last::solve_4(self, nodes, p, o, alpha, x)
    }
}

/// x86-64 with POPCNT, LZCNT, BMI1 and BMI2 (every x86-64 processor since
/// about 2013). Only [`Modern::detect`] makes one, so holding one proves
/// the processor runs its code.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Modern(());

#[cfg(target_arch = "x86_64")]
impl Modern {
    /// The kernel, when this processor has its instructions.
    pub fn detect() -> Option<Modern> {
        (std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("avx2"))
        .then_some(Modern(()))
    }
}

#[cfg(target_arch = "x86_64")]
mod modern {
    use super::{last, nws, order, Features, Kernel, Modern, Search, Weights};

    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn shallow(k: Modern, s: &mut Search<'_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
        nws::shallow(k, s, p, o, alpha, parity)
    }
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn deep(k: Modern, s: &mut Search<'_>, p: u64, o: u64, alpha: i32) -> i32 {
        nws::deep(k, s, p, o, alpha)
    }
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[allow(clippy::too_many_arguments)]
    fn probe(
        k: Modern,
        w: &Weights,
        p: u64,
        o: u64,
        f: &Features,
        d: u32,
        a: i32,
        b: i32,
        n: &mut u64,
    ) -> i32 {
        order::probe(k, w, p, o, f, d, a, b, n)
    }
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn solve_3(nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 3]) -> i32 {
        last::solve_3(nodes, p, o, alpha, x)
    }
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn solve_4(k: Modern, nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 4]) -> i32 {
        last::solve_4(k, nodes, p, o, alpha, x)
    }

    // SAFETY (each call below): a `Modern` exists only where
    // `Modern::detect` found every feature these functions enable.
    impl Kernel for Modern {
        #[inline(always)]
        fn shallow(self, s: &mut Search<'_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
            unsafe { shallow(self, s, p, o, alpha, parity) }
        }
        #[inline(always)]
        fn deep(self, s: &mut Search<'_>, p: u64, o: u64, alpha: i32) -> i32 {
            unsafe { deep(self, s, p, o, alpha) }
        }
        #[inline(always)]
        fn solve_3(self, nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 3]) -> i32 {
            unsafe { solve_3(nodes, p, o, alpha, x) }
        }
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn probe(
            self,
            w: &Weights,
            p: u64,
            o: u64,
            f: &Features,
            d: u32,
            a: i32,
            b: i32,
            n: &mut u64,
        ) -> i32 {
            unsafe { probe(self, w, p, o, f, d, a, b, n) }
        }
        #[inline(always)]
        fn solve_4(self, nodes: &mut u64, p: u64, o: u64, alpha: i32, x: [usize; 4]) -> i32 {
            unsafe { solve_4(self, nodes, p, o, alpha, x) }
        }
    }
}
