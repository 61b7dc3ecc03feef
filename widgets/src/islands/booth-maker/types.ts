/**
 * The booth maker's wire types (`/api/v1/booth_maker`, snake_case as on the wire), written by
 * hand from the contract until the generated OpenAPI types replace them. Vectors are metres in
 * the home's frame (+Y up, floor at y = 0, interior centred on x = z = 0); rotations are unit
 * quaternions `[x, y, z, w]`.
 */

export type Vec3 = [number, number, number];
/** x, y, z, w. */
export type Quat = [number, number, number, number];
export type SubType = 'floor' | 'wall' | 'ceiling';

/** One placed piece of furniture. */
export interface SceneItem {
  asset_version_id: number;
  sub_type: SubType;
  position: Vec3;
  rotation: Quat;
  scale: Vec3;
}

/** The scene a booth is saved as. */
export interface SceneJson {
  version: 1;
  home: number;
  items: SceneItem[];
}

/** A model's report figures; the box is the model's own, metres, local axes. */
export interface ItemStats {
  triangles: number;
  materials: number;
  texture_memory: number;
  bytes: number;
  box_min: Vec3;
  box_max: Vec3;
}

/** One of the user's furniture versions that may be placed. */
export interface PaletteItem {
  asset_version_id: number;
  asset_id: number;
  name: string;
  sub_type: SubType;
  /** The GLB. */
  url: string;
  thumbnail: string | null;
  stats: ItemStats;
}

/** The preset home (room) the booth stands in. */
export interface Home {
  id: number;
  platform_code: string;
  name: string;
  /** The room's GLB. */
  scene_url: string;
  thumbnail_url: string | null;
  /** Interior `[width, height, depth]`. */
  size: Vec3;
}

export type SumKind = 'max_triangles' | 'max_materials' | 'max_texture_memory' | 'max_bytes';
export type RuleKind = 'bounding_box' | SumKind;
export type Severity = 'error' | 'warning';

/** One rule of the booth's rule set that concerns the whole scene. */
export type RuleView =
  | { rule_id: string; severity: Severity; kind: 'bounding_box'; limit: Vec3 }
  | { rule_id: string; severity: Severity; kind: SumKind; limit: number };

/** A scene's sums. */
export interface Totals {
  items: number;
  triangles: number;
  materials: number;
  texture_memory: number;
  bytes: number;
  box: Vec3;
}

/** A rule the scene is over. */
export interface Finding {
  rule_id: string;
  kind: RuleKind;
  severity: Severity;
  limit: number | Vec3;
  actual: number | Vec3;
}

/** A slot the scene may be submitted to. */
export interface SlotChoice {
  id: number;
  label: string;
  open: boolean;
  submission_end_at: string | null;
}

/** The scene's saved (housing scene) side. */
export interface SceneSummary {
  id: number;
  name: string;
  introduction: string;
  revision: number;
  published: boolean;
  updated_at: string;
}

/** Placement limits. */
export interface Limits {
  max_items: number;
  min_scale: number;
  max_scale: number;
}

/** `GET /scenes/{id}`: everything the editor needs. */
export interface EditorView {
  scene: SceneSummary;
  home: Home;
  draft: { revision: number; scene: SceneJson; updated_at: string };
  palette: PaletteItem[];
  /** The user's newest VRM, shown for scale only. */
  avatar: { name: string; url: string } | null;
  rules: RuleView[];
  limits: Limits;
  slots: SlotChoice[];
}

/** `PUT /scenes/{id}/draft`. */
export interface DraftSaved {
  revision: number;
  updated_at: string;
  totals: Totals;
  findings: Finding[];
}

/** `POST /scenes/{id}/save`. */
export interface SceneSaved {
  scene: SceneSummary;
  totals: Totals;
  findings: Finding[];
}

/** `POST /scenes/{id}/submissions` (201). */
export interface Submitted {
  id: number;
  slot_id: number;
  version: number;
  submission_tools_type: 'booth_maker';
}
