//! Tests of the analysers, the rules and the report over generated samples.

mod model;
