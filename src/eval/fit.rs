//! The least-squares fit of the weights to labelled positions.
//!
//! Each phase is fitted on its own, in parallel, from the positions with
//! its empties and `window` more or fewer (neighbouring phases see
//! similar boards, and sharing their positions smooths weights from one
//! phase to the next where a phase alone has few). The fit minimises the
//! squared error plus `ridge` times the squared weights (so an index
//! seldom seen stays near 0, and one never seen is 0) by conjugate
//! gradients on the normal equations, each weight scaled by how often it
//! is used (a Jacobi preconditioner): a round is one pass over the
//! positions. The result does not depend on the threads: each phase is
//! summed in the samples' order.

use rayon::prelude::*;

use super::patterns::{indices, phase, PHASES, PHASE_SPAN, PHASE_WEIGHTS};
use super::weights::{Weights, SCALE};

/// A labelled position: the discs of the side to move and of the other
/// side, and its value for the side to move in discs (an exact value or
/// an estimate, see `label`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// The label: a disc difference for the side to move, −64 to 64.
    pub score: i8,
}

impl Sample {
    /// Its empty squares.
    #[must_use]
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// How the fit runs.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Rounds (conjugate gradient steps), each one pass over the
    /// positions.
    pub epochs: usize,
    /// A phase also learns from positions with up to this many empties
    /// more or fewer than its own.
    pub window: u32,
    /// The weight of the squared weights beside the squared errors
    /// (discs²).
    pub ridge: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 40,
            window: 2,
            ridge: 2.0,
        }
    }
}

/// One phase being fitted: `x` the weights in discs, the rest the
/// conjugate gradient's state.
struct Phase {
    /// The samples it learns from.
    members: Vec<u32>,
    /// Whether each member is of this phase itself (its error is
    /// reported).
    own: Vec<bool>,
    /// Each member's residual, label minus estimate.
    residual: Vec<f32>,
    /// Each member's estimate of the search direction (`A p`).
    along: Vec<f32>,
    x: Vec<f64>,
    /// The normal equations' residual, `Aᵀ r − ridge·x`.
    gradient: Vec<f64>,
    /// The search direction.
    direction: Vec<f64>,
    /// 1 / (uses + ridge): the preconditioner.
    scale: Vec<f64>,
    /// `gradient · scale · gradient`.
    gamma: f64,
}

impl Phase {
    /// The phase's members and the first direction.
    fn new(p: usize, samples: &[Sample], options: &FitOptions) -> Phase {
        let low = (p as u32 * PHASE_SPAN).saturating_sub(options.window);
        let high = if p + 1 == PHASES {
            u32::MAX
        } else {
            p as u32 * PHASE_SPAN + PHASE_SPAN - 1 + options.window
        };
        let mut members = Vec::new();
        let mut own = Vec::new();
        let mut residual = Vec::new();
        let mut uses = vec![0f64; PHASE_WEIGHTS];
        let mut gradient = vec![0f64; PHASE_WEIGHTS];
        for (i, s) in samples.iter().enumerate() {
            let e = s.empties();
            if e >= low && e <= high {
                members.push(i as u32);
                own.push(phase(e) == p);
                residual.push(f32::from(s.score));
                for &k in &indices(s.player, s.opponent) {
                    uses[k as usize] += 1.0;
                    gradient[k as usize] += f64::from(s.score);
                }
            }
        }
        let scale: Vec<f64> = uses.iter().map(|&u| 1.0 / (u + options.ridge)).collect();
        let direction: Vec<f64> = gradient.iter().zip(&scale).map(|(g, m)| g * m).collect();
        let gamma = gradient.iter().zip(&direction).map(|(g, z)| g * z).sum();
        let along = vec![0f32; members.len()];
        Phase {
            members,
            own,
            residual,
            along,
            x: vec![0.0; PHASE_WEIGHTS],
            gradient,
            direction,
            scale,
            gamma,
        }
    }

    /// One conjugate gradient step. Returns the squared residuals after
    /// it and the count of the phase's own samples.
    fn round(&mut self, samples: &[Sample], ridge: f64) -> (f64, usize) {
        // w = (AᵀA + ridge) p, and A p kept for the residuals.
        let mut w: Vec<f64> = self.direction.iter().map(|d| d * ridge).collect();
        for (k, &m) in self.members.iter().enumerate() {
            let s = &samples[m as usize];
            let idx = indices(s.player, s.opponent);
            let q: f64 = idx.iter().map(|&i| self.direction[i as usize]).sum();
            self.along[k] = q as f32;
            for &i in &idx {
                w[i as usize] += q;
            }
        }
        let curvature: f64 = self.direction.iter().zip(&w).map(|(p, w)| p * w).sum();
        let alpha = if curvature > 0.0 {
            self.gamma / curvature
        } else {
            0.0
        };
        for ((x, g), (p, w)) in self
            .x
            .iter_mut()
            .zip(self.gradient.iter_mut())
            .zip(self.direction.iter().zip(&w))
        {
            *x += alpha * p;
            *g -= alpha * w;
        }
        let (mut squares, mut n) = (0f64, 0usize);
        for ((r, &q), &own) in self.residual.iter_mut().zip(&self.along).zip(&self.own) {
            *r -= (alpha * f64::from(q)) as f32;
            if own {
                squares += f64::from(*r) * f64::from(*r);
                n += 1;
            }
        }
        let gamma: f64 = self
            .gradient
            .iter()
            .zip(&self.scale)
            .map(|(g, m)| g * g * m)
            .sum();
        let beta = if self.gamma > 0.0 {
            gamma / self.gamma
        } else {
            0.0
        };
        self.gamma = gamma;
        for ((p, g), m) in self
            .direction
            .iter_mut()
            .zip(&self.gradient)
            .zip(&self.scale)
        {
            *p = g * m + beta * *p;
        }
        (squares, n)
    }
}

/// Fits weights to `samples` by least squares ([`FitOptions`]).
/// Deterministic: the same samples in the same order give the same
/// weights on any machine and any number of threads. `progress` hears
/// each round's number and the root mean squared error (in discs) of
/// the positions after it.
pub fn train(
    samples: &[Sample],
    options: &FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> Weights {
    assert!(samples.len() <= u32::MAX as usize, "too many samples");
    let mut phases: Vec<Phase> = (0..PHASES)
        .into_par_iter()
        .map(|p| Phase::new(p, samples, options))
        .collect();
    for epoch in 0..options.epochs {
        let rounds: Vec<(f64, usize)> = phases
            .par_iter_mut()
            .map(|ph| ph.round(samples, options.ridge))
            .collect();
        let (squares, n) = rounds
            .iter()
            .fold((0f64, 0usize), |(s, n), &(a, b)| (s + a, n + b));
        progress(epoch, (squares / n.max(1) as f64).sqrt());
    }
    let table = phases
        .iter()
        .flat_map(|ph| {
            ph.x.iter()
                .map(|&w| (w * f64::from(SCALE)).round().clamp(-32767.0, 32767.0) as i16)
        })
        .collect();
    Weights::from_table(table)
}

/// The mean absolute error in discs of `weights` on `samples`, and the
/// count, by the samples' empties (index = empties).
pub fn errors(weights: &Weights, samples: &[Sample]) -> Vec<(f64, usize)> {
    let mut out = vec![(0f64, 0usize); 65];
    for s in samples {
        let guess = f64::from(weights.evaluate(s.player, s.opponent)) / f64::from(SCALE);
        let slot = &mut out[s.empties() as usize];
        slot.0 += (guess - f64::from(s.score)).abs();
        slot.1 += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::{flips_at, moves};
    use crate::testkit::Rng;

    /// Positions of random games, each labelled with its disc difference
    /// after `later` more random moves: a learnable, noisy label.
    fn random_samples(seed: u64, n: usize) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            for _ in 0..rng.below(50) {
                let legal = moves(p, o);
                if legal == 0 {
                    break;
                }
                let pick = rng.below(legal.count_ones() as usize);
                let mut l = legal;
                for _ in 0..pick {
                    l &= l - 1;
                }
                let x = l.trailing_zeros() as usize;
                let f = flips_at(p, o, x);
                (p, o) = (o ^ f, p | f | (1 << x));
            }
            let diff = p.count_ones() as i32 - o.count_ones() as i32;
            out.push(Sample {
                player: p,
                opponent: o,
                score: diff as i8,
            });
        }
        out
    }

    #[test]
    fn a_small_fit_lowers_the_error_and_repeats() {
        let samples = random_samples(7, 400);
        let options = FitOptions {
            epochs: 6,
            ..FitOptions::default()
        };
        let mut rmse = Vec::new();
        let w = train(&samples, &options, |_, e| rmse.push(e));
        assert_eq!(rmse.len(), 6);
        assert!(rmse[5] < rmse[0], "{rmse:?}");
        let again = train(&samples, &options, |_, _| {});
        assert_eq!(w.to_bytes(), again.to_bytes());
        let mae = |w: &Weights| {
            let e = errors(w, &samples);
            e.iter().map(|x| x.0).sum::<f64>() / e.iter().map(|x| x.1).sum::<usize>() as f64
        };
        let untrained = train(
            &samples,
            &FitOptions {
                epochs: 0,
                ..FitOptions::default()
            },
            |_, _| {},
        );
        assert!(mae(&w) < mae(&untrained));
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        let (p, o) = (0x0000_0018_1c00_0000u64, 0x0000_0000_0008_0000u64);
        let w = train(
            &[Sample {
                player: p,
                opponent: o,
                score: 10,
            }],
            &FitOptions {
                epochs: 3,
                window: 0,
                ridge: 1.0,
            },
            |_, _| {},
        );
        let base = w.evaluate(p, o);
        assert!(base > 0);
        use super::super::patterns::images;
        for (ip, io) in images(p).into_iter().zip(images(o)) {
            assert_eq!(w.evaluate(ip, io), base);
        }
    }
}
