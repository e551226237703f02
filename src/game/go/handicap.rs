//! Fixed handicap placement, GTP 2.0 §4.1.1.

/// Order of the stones, as (col, row) in "low / middle / high" lines:
/// 0 = the 3rd or 4th line from the left/bottom, 1 = the centre line,
/// 2 = the 3rd or 4th line from the right/top. On 19x19: D4 Q16 D16 Q4
/// D10 Q10 K4 K16; odd counts of 5 and more take one stone fewer from this
/// list plus the centre (K10).
const LAYOUT: [(u8, u8); 8] = [
    (0, 0), // D4
    (2, 2), // Q16
    (0, 2), // D16
    (2, 0), // Q4
    (0, 1), // D10
    (2, 1), // Q10
    (1, 0), // K4
    (1, 2), // K16
];
const CENTRE: (u8, u8) = (1, 1);

/// Handicap stone points (col, row) for `stones` stones on a `size` board,
/// or `None` where GTP defines no fixed placement: boards under 7x7, more
/// than 4 stones on 7x7 or even sizes, fewer than 2 or more than 9 stones.
pub fn fixed_handicap(size: usize, stones: usize) -> Option<Vec<(usize, usize)>> {
    if !(7..=25).contains(&size) || !(2..=9).contains(&stones) {
        return None;
    }
    if (size == 7 || size.is_multiple_of(2)) && stones > 4 {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let line = |which: u8| match which {
        0 => edge,
        1 => size / 2,
        _ => size - 1 - edge,
    };
    let at = |(col, row): (u8, u8)| (line(col), line(row));
    // Odd counts from 5 up take the centre plus the even count below.
    let ring = if stones >= 5 && !stones.is_multiple_of(2) {
        stones - 1
    } else {
        stones
    };
    let mut points: Vec<(usize, usize)> = LAYOUT[..ring].iter().copied().map(at).collect();
    if ring != stones {
        points.push(at(CENTRE));
    }
    Some(points)
}
