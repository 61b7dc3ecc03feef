//! Counts the SQL statements a request runs, through SeaORM's metric callback on the app's
//! connection (every clone of it — the app, other nodes, the test — reports here).

use std::sync::{Arc, Mutex, PoisonError};

use sea_orm::DatabaseConnection;

/// The statements run on a connection, in order.
#[derive(Clone, Default)]
pub struct SqlLog(Arc<Mutex<Vec<String>>>);

impl SqlLog {
    /// Records every statement `conn` (and each later clone of it) runs.
    pub fn attach(&self, conn: &mut DatabaseConnection) {
        let log = self.clone();
        conn.set_metric_callback(move |info| {
            log.0.lock().unwrap_or_else(PoisonError::into_inner).push(info.statement.sql.clone());
        });
    }

    /// The statements run since the last call, and forgets them.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}
