//! The layout of the current state for one viewer (docs/reference.md "Layouts"): the engine's
//! [`sidl_engine::game::layout::Layout`] crosses as it is (plain serde data; `types.d.ts`
//! declares it as `Layout`). Evaluated by the engine from the viewer's view only.

use super::{parse, Core, CoreError};
use sidl_engine::game::layout::{self, Layout};

impl Core {
    /// The layout for `player` (`None`: the designer), labels in `lang` (`None`: the default);
    /// `raw`: the raw terms instead of the labels (the "labels / raw terms" toggle).
    pub fn layout(
        &mut self,
        player: Option<&str>,
        lang: Option<&str>,
        raw: bool,
    ) -> Result<Layout, CoreError> {
        let p = player.map(|p| parse(p, "player")).transpose()?;
        let texts = if raw {
            layout::Texts::Raw
        } else {
            layout::Texts::Labels
        };
        layout::layout_with(&mut self.session, p.as_ref(), lang, texts).map_err(|e| self.rt(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_crosses_as_plain_data() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../games/tictactoe.sidl"
        ))
        .expect("game");
        let mut core = Core::new(&src).expect("loads");
        let json =
            serde_json::to_value(core.layout(Some("[xplayer]"), None, false).expect("layout"))
                .expect("json");
        assert_eq!(json["parts"][0]["kind"], "board");
        assert_eq!(
            json["parts"][0]["columns"],
            serde_json::json!(["1", "2", "3"])
        );
        assert_eq!(json["parts"][0]["squares"][0][0], serde_json::Value::Null);
        assert!(core.layout(Some("nobody("), None, false).is_err());
    }
}
