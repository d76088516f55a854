//! Every renju forbidden-point case of the third-party data (tests/data), whole maps and
//! single-point queries.
mod common;

use common::read_cases;
use tianyuan::board::{forbidden, Board};
use tianyuan::core::{parse_point, parse_point_list, Color, Rule};

fn board_of(c: &common::Case) -> Board {
    let black = parse_point_list(c.get("black"), c.size, c.size).unwrap();
    let white = parse_point_list(c.get("white"), c.size, c.size).unwrap();
    Board::from_stones_to_move(c.size, c.size, Rule::Renju, &black, &white, Color::Black).unwrap()
}

#[test]
fn forbidden_maps_match() {
    let cases = read_cases("renju_forbidden_boards.txt");
    let mut failures = Vec::new();
    for c in &cases {
        let b = board_of(c);
        let mut expected: Vec<(String, String)> = Vec::new();
        let f = c.get("forbidden");
        if f != "-" {
            for item in f.split(',') {
                let (pt, kind) = item.split_once(':').unwrap();
                let p = parse_point(pt, c.size, c.size).unwrap();
                expected.push((p.to_notation(), kind.to_string()));
            }
        }
        expected.sort();
        let mut got: Vec<(String, String)> = b
            .forbidden_points()
            .into_iter()
            .map(|(p, k)| (p.to_notation(), k.code().to_string()))
            .collect();
        got.sort();
        // The exact (from-lines) test must agree with the fast one everywhere.
        for p in b.empty_points() {
            let mut lines = b.lines().clone();
            assert_eq!(
                forbidden::exact(&mut lines, p),
                b.forbidden(p),
                "{} at {}",
                c.id,
                p
            );
        }
        if got != expected {
            failures.push(format!(
                "{}: expected {:?}\n      got {:?}\n{}",
                c.id,
                expected,
                got,
                b.render(&[])
            ));
        }
    }
    println!("checked {} forbidden maps", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} maps differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert_eq!(cases.len(), 56);
}

fn check_points(file: &str, expect_count: usize) {
    let cases = read_cases(file);
    let mut failures = Vec::new();
    for c in &cases {
        let b = board_of(c);
        let p = parse_point(c.get("point"), c.size, c.size).unwrap();
        let got = b.forbidden(p);
        let expect_forbidden = c.get("expect") == "forbidden";
        if got.is_some() != expect_forbidden {
            failures.push(format!(
                "{}: point {} expected {} got {:?}\n{}",
                c.id,
                p,
                c.get("expect"),
                got,
                b.render(&[])
            ));
        }
    }
    println!(
        "checked {} forbidden-point queries in {}",
        cases.len(),
        file
    );
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert_eq!(cases.len(), expect_count);
}

#[test]
fn forbidden_point_queries_match() {
    check_points("renju_forbidden_points.txt", 46);
}

#[test]
fn handmade_forbidden_queries_match() {
    check_points("renju_forbidden_handmade.txt", 11);
}
