//! Values in both languages. Tables keep one as two columns (`name_ja`, `name_en`); clients get
//! it as three keys (spec §3): `name` in the language they asked for — the other language when
//! that one is blank — then `name_ja` and `name_en`. [`Bilingual`] is the value; a view holds it
//! as a [`Localized`] field, flattened into the view as those three keys.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::types::lang::Lang;

/// A value in Japanese and English.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bilingual<T = String> {
    /// The Japanese value.
    pub ja: T,
    /// The English value.
    pub en: T,
}

/// What a bilingual value can be: text (blank when empty) or optional text (blank when absent).
pub trait BilingualValue {
    /// Whether clients may find it absent (`null`).
    const OPTIONAL: bool;
    /// Whether the value is missing in its language (so the other language stands in).
    fn is_blank(&self) -> bool;
}

impl BilingualValue for String {
    const OPTIONAL: bool = false;
    fn is_blank(&self) -> bool {
        self.is_empty()
    }
}

impl BilingualValue for Option<String> {
    const OPTIONAL: bool = true;
    fn is_blank(&self) -> bool {
        self.is_none()
    }
}

impl<T: BilingualValue> Bilingual<T> {
    /// The value from its Japanese and English parts.
    pub fn new(ja: T, en: T) -> Self {
        Self { ja, en }
    }

    /// The value in `lang`; when that one is blank, the other language's (rather than a blank).
    pub fn pick(&self, lang: Lang) -> &T {
        let (wanted, other) = match lang {
            Lang::Ja => (&self.ja, &self.en),
            Lang::En => (&self.en, &self.ja),
        };
        if wanted.is_blank() { other } else { wanted }
    }

    /// This value as the view field `K`, for a client reading `lang`.
    pub fn localized<K: Field>(self, lang: Lang) -> Localized<K, T> {
        Localized { text: self, lang, field: PhantomData }
    }
}

/// The three keys of a bilingual view field.
pub trait Field {
    /// The key of the value in the client's language, e.g. `name`.
    const KEY: &'static str;
    /// The key of the Japanese value, e.g. `name_ja`.
    const JA: &'static str;
    /// The key of the English value, e.g. `name_en`.
    const EN: &'static str;
}

/// Declares, per bilingual field name, a marker type in [`field`] and the view field type in
/// [`localized`].
macro_rules! fields {
    ($($(#[$doc:meta])* $marker:ident => $key:literal $(as $value:ty)?;)+) => {
        /// The names of the bilingual fields of client views (markers for [`Localized`]).
        pub mod field {
            $(
                $(#[$doc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
                pub struct $marker;

                impl super::Field for $marker {
                    const KEY: &'static str = $key;
                    const JA: &'static str = concat!($key, "_ja");
                    const EN: &'static str = concat!($key, "_en");
                }
            )+
        }

        /// The bilingual text fields of client views, by name: `localized::Name` is the field
        /// that adds `name`, `name_ja` and `name_en` to its view.
        pub mod localized {
            $(
                $(#[$doc])*
                pub type $marker = super::Localized<super::field::$marker $(, $value)?>;
            )+
        }
    };
}

fields! {
    /// `name`, `name_ja`, `name_en`.
    Name => "name";
    /// `description`, `description_ja`, `description_en`.
    Description => "description";
    /// `title`, `title_ja`, `title_en`.
    Title => "title";
    /// `label`, `label_ja`, `label_en`.
    Label => "label";
    /// `theme`, `theme_ja`, `theme_en`.
    Theme => "theme";
    /// `theme_description`, `theme_description_ja`, `theme_description_en`.
    ThemeDescription => "theme_description";
    /// `site_name`, `site_name_ja`, `site_name_en`.
    SiteName => "site_name";
    /// `map_image`, `map_image_ja`, `map_image_en` (an optional image per language).
    MapImage => "map_image" as Option<String>;
}

/// A bilingual field `K` of a client view, for a client reading one language. Declared with
/// `#[serde(flatten)]` (through its alias in [`localized`], which the schema derive needs), it
/// adds three keys to its view: `K::KEY` (the
/// value in the client's language, see [`Bilingual::pick`]), `K::JA` and `K::EN`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Localized<K, T = String> {
    text: Bilingual<T>,
    lang: Lang,
    field: PhantomData<K>,
}

impl<K: Field, T: BilingualValue> Localized<K, T> {
    /// The field from its Japanese and English values, for a client reading `lang`.
    pub fn new(lang: Lang, ja: T, en: T) -> Self {
        Bilingual::new(ja, en).localized(lang)
    }

    /// The value in the client's language.
    pub fn get(&self) -> &T {
        self.text.pick(self.lang)
    }

    /// Both values.
    pub fn text(&self) -> &Bilingual<T> {
        &self.text
    }
}

impl<K: Field, T: BilingualValue + Serialize> Serialize for Localized<K, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Localized", 3)?;
        out.serialize_field(K::KEY, self.get())?;
        out.serialize_field(K::JA, &self.text.ja)?;
        out.serialize_field(K::EN, &self.text.en)?;
        out.end()
    }
}

impl<K: Field, T: BilingualValue> PartialSchema for Localized<K, T> {
    fn schema() -> RefOr<Schema> {
        let keys = [
            (K::KEY, "In the request's language (`lang`); the other language's when that one is blank."),
            (K::JA, "In Japanese."),
            (K::EN, "In English."),
        ];
        let value_type =
            if T::OPTIONAL { SchemaType::from_iter([Type::String, Type::Null]) } else { Type::String.into() };
        let mut object = ObjectBuilder::new();
        for (key, description) in keys {
            object = object
                .property(key, ObjectBuilder::new().schema_type(value_type.clone()).description(Some(description)));
            if !T::OPTIONAL {
                object = object.required(key);
            }
        }
        Schema::Object(object.build()).into()
    }
}

/// Listed in the OpenAPI document as `Localized` + the field name in CamelCase, e.g.
/// `LocalizedThemeDescription`.
impl<K: Field, T: BilingualValue> ToSchema for Localized<K, T> {
    fn name() -> Cow<'static, str> {
        let camel: String = K::KEY.split('_').map(|word| word[..1].to_ascii_uppercase() + &word[1..]).collect();
        Cow::Owned(format!("Localized{camel}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct View {
        id: i32,
        #[serde(flatten)]
        name: localized::Name,
        #[serde(flatten)]
        map_image: localized::MapImage,
        done: bool,
    }

    #[test]
    fn pick_falls_back_to_the_other_language() {
        let cat = Bilingual::new("猫".to_string(), "Cat".to_string());
        assert_eq!((cat.pick(Lang::Ja).as_str(), cat.pick(Lang::En).as_str()), ("猫", "Cat"));
        let ja_only = Bilingual::new("猫".to_string(), String::new());
        assert_eq!(ja_only.pick(Lang::En), "猫");
        let en_only = Bilingual::new(None, Some("map.png".to_string()));
        assert_eq!(en_only.pick(Lang::Ja).as_deref(), Some("map.png"));
    }

    #[test]
    fn schema_names_follow_the_field() {
        assert_eq!(localized::ThemeDescription::name(), "LocalizedThemeDescription");
        assert_eq!(localized::Name::name(), "LocalizedName");
    }

    #[test]
    fn a_view_gets_the_three_keys_in_place() {
        let view = View {
            id: 7,
            name: Localized::new(Lang::En, "猫".into(), "Cat".into()),
            map_image: Localized::new(Lang::En, Some("ja.png".into()), None),
            done: true,
        };
        assert_eq!(
            serde_json::to_string(&view).unwrap(),
            r#"{"id":7,"name":"Cat","name_ja":"猫","name_en":"Cat","map_image":"ja.png","map_image_ja":"ja.png","map_image_en":null,"done":true}"#
        );
    }
}
