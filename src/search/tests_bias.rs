//! Progressive bias (`sim::Prior::bias`): how it enters a child's urgency
//! and what it costs the tree.

use super::tree::{Count, Node, Sum};
use super::uct;
use super::SearchConfig;
use crate::sim::MAX_BIAS;

fn child(visits: u64, wins: f64, bias: f32) -> Node<u8> {
    let mut node = Node::new(Some(0), 10.0, 5.0).with_bias(bias);
    node.visits = Count::new(visits);
    node.wins = Sum::new(wins);
    node
}

#[test]
fn bias_fades_with_the_childs_own_visits() {
    let cfg = SearchConfig::default();
    let ln_parent = 1000f64.ln();
    let gap = |visits: u64, wins: f64| {
        uct::urgency(&child(visits, wins, 0.4), ln_parent, &cfg)
            - uct::urgency(&child(visits, wins, 0.0), ln_parent, &cfg)
    };
    // Bias / (own visits + 1): the whole bias before any playout, a
    // hundredth of it after 99.
    assert!((gap(0, 0.0) - 0.4).abs() < 1e-9, "{}", gap(0, 0.0));
    assert!((gap(99, 50.0) - 0.004).abs() < 1e-9, "{}", gap(99, 50.0));
    // A negative bias pushes the move down by as much.
    let down = uct::urgency(&child(0, 0.0, -0.4), ln_parent, &cfg)
        - uct::urgency(&child(0, 0.0, 0.0), ln_parent, &cfg);
    assert!((down + 0.4).abs() < 1e-9, "{down}");
}

#[test]
fn bias_is_kept_to_a_thousandth_and_clamped() {
    assert_eq!(child(0, 0.0, 0.1234).bias(), 0.123);
    assert_eq!(child(0, 0.0, -0.0006).bias(), -0.001);
    assert_eq!(child(0, 0.0, 1e9).bias(), MAX_BIAS as f64);
    assert_eq!(child(0, 0.0, -1e9).bias(), -(MAX_BIAS as f64));
    assert_eq!(child(0, 0.0, f32::NAN).bias(), 0.0);
    // A kept subtree copies its nodes: the bias goes with them.
    assert_eq!(child(3, 1.0, 0.25).clone().bias(), 0.25);
}

#[test]
fn a_go_node_stays_64_bytes() {
    // The bias lives in the node's padding: a bigger node would cost every
    // tree an eighth more memory for the same number of nodes.
    assert!(std::mem::size_of::<Node<crate::game::go::Move>>() <= 64);
}
