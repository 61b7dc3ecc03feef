//! The tax lines of a receipt. Every fee of the platform is a tax-inclusive amount in yen at the
//! standard rate (10 %); the tax in it is rounded down once per receipt and rate, as a qualified
//! invoice requires (one rounding per invoice and rate, never per line).

use serde::Serialize;

/// The standard consumption-tax rate, in percent.
pub const STANDARD_RATE: i64 = 10;

/// The amount a receipt holds at one tax rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TaxLine {
    /// The rate, in percent.
    pub rate: i64,
    /// The amount at this rate, tax included, in yen.
    pub amount: i64,
    /// The tax in it, in yen: `amount × rate / (100 + rate)`, rounded down.
    pub tax: i64,
}

/// The tax lines of a receipt whose items cost `amounts` (tax included, all at the standard rate):
/// one line, its tax rounded once. None for a receipt of nothing.
pub fn lines(amounts: &[i64]) -> Vec<TaxLine> {
    if amounts.is_empty() {
        return Vec::new();
    }
    let amount: i64 = amounts.iter().sum();
    let tax = (amount * STANDARD_RATE).div_euclid(100 + STANDARD_RATE);
    vec![TaxLine { rate: STANDARD_RATE, amount, tax }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tax_in_an_inclusive_amount_is_rounded_down_once() {
        assert_eq!(lines(&[8000]), [TaxLine { rate: 10, amount: 8000, tax: 727 }]);
        assert_eq!(lines(&[11000]), [TaxLine { rate: 10, amount: 11000, tax: 1000 }]);
        assert_eq!(lines(&[0]), [TaxLine { rate: 10, amount: 0, tax: 0 }]);
        assert_eq!(lines(&[1000, 1000, 1000])[0].tax, 272, "per item it would be 90 × 3 = 270");
        assert_eq!(lines(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])[0].tax, 1, "11 yen: 1 yen tax, though no item has any");
        assert!(lines(&[]).is_empty());
    }
}
