import { z } from "zod";
import {
  nameSchema,
  OptionalColorSchema,
  optionalEnumSchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  optionalTextSchema,
  SourceIdSchema,
} from "./field-schemas";
import type { SureCategoryValues, SureMerchantValues, SureTagValues } from "./record-values";

/** Hearth's limits for names (its API refuses longer) and for a link. */
const LIMITS = { category: 100, tag: 100, merchant: 200, icon: 100, url: 2_048 } as const;

const Classification = optionalEnumSchema(["income", "expense"]);

/** A Category record as import_categories reads it: classification_unused (Sure's column), else classification, else expense. */
export const CategorySchema = z
  .object({
    id: SourceIdSchema,
    name: nameSchema(LIMITS.category),
    color: OptionalColorSchema,
    parent_id: OptionalSourceIdSchema,
    classification_unused: Classification,
    classification: Classification,
    lucide_icon: optionalNameSchema(LIMITS.icon),
  })
  .transform((data): Omit<SureCategoryValues, "line"> => ({
    source_id: data.id,
    name: data.name,
    color: data.color,
    parent_id: data.parent_id,
    classification: data.classification_unused ?? data.classification ?? "expense",
    lucide_icon: data.lucide_icon,
  }));

/** A Tag record as import_tags reads it. */
export const TagSchema = z
  .object({ id: SourceIdSchema, name: nameSchema(LIMITS.tag), color: OptionalColorSchema })
  .transform((data): Omit<SureTagValues, "line"> => ({ source_id: data.id, name: data.name, color: data.color }));

/** A Merchant record as import_merchants reads it (a family merchant; the exporter's `type` is ignored). */
export const MerchantSchema = z
  .object({
    id: SourceIdSchema,
    name: nameSchema(LIMITS.merchant),
    color: OptionalColorSchema,
    logo_url: optionalTextSchema(LIMITS.url),
    website_url: optionalTextSchema(LIMITS.url),
  })
  .transform((data): Omit<SureMerchantValues, "line"> => ({
    source_id: data.id,
    name: data.name,
    color: data.color,
    logo_url: data.logo_url,
    website_url: data.website_url,
  }));
