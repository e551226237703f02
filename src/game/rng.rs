//! The playout random number generator.
//!
//! xorshift64* : tiny state, fast, and simple to reproduce bit-for-bit in CUDA
//! so that kernel replays can be checked against the CPU.

#[derive(Clone, Debug)]
pub struct FastRng {
    state: u64,
}

impl FastRng {
    pub fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so nearby seeds give unrelated streams and
        // the state is never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        FastRng {
            state: if z == 0 { 0x2545_F491_4F6C_DD1D } else { z },
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift (no division).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = FastRng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..10_000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 1_500), "{seen:?}");
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (FastRng::new(42), FastRng::new(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }
}
