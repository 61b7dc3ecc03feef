//! After the win (issue 28): a circle's event slots and their placement, its catalogue items,
//! its booth submissions and their inspection, the checklist, and what the desktop submission
//! tool reads.

mod catalog;
mod slots;
mod submissions;
mod tools;
