//! Small closed vocabularies stored as snake_case strings (platforms, venues, kinds, categories).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Derives the storage, wire and schema traits every vocabulary here shares.
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
        #[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// The snake_case name, as stored and sent.
            pub fn as_str(self) -> String {
                self.to_value()
            }
        }
    };
}

vocabulary!(
    /// Which clients a world supports (`exhibitionPlatform`).
    Platform {
        /// Not set.
        None,
        /// PC only.
        Pc,
        /// PC and mobile / Quest.
        CrossPlatform,
    }
);

vocabulary!(
    /// Where a world is hosted.
    Venue {
        /// Not set.
        None,
        /// VRChat.
        Vrc,
        /// The marketplace's own browser-based cloud venue.
        VmarketCloud,
    }
);

vocabulary!(
    /// The kind of a concept or exhibitor.
    ConceptKind {
        /// Corporate exhibitors.
        Company,
        /// Cross-platform.
        Cross,
        /// Browser venue.
        Browser,
        /// General circles.
        General,
    }
);

vocabulary!(
    /// The role an artist played on a world.
    WorldArtistCategory {
        /// Built the world.
        WorldModeler,
        /// Composed its music.
        BgmComposer,
        /// Designed its logo.
        LogoDesigner,
    }
);

vocabulary!(
    /// The role an artist played on a concept.
    ConceptArtistCategory {
        /// Designed the concept art.
        ArtDesigner,
    }
);
