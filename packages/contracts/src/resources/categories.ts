import { z } from "zod";
import { BooleanParamSchema, HexColorSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

export const CategoryClassificationSchema = z.enum(["income", "expense"]);

/** Sure's CategoryDetail, plus the classification Hearth keeps (income or expense). */
export const CategorySchema = z.object({
  id: UuidSchema,
  name: z.string(),
  color: z.string(),
  icon: z.string(),
  classification: CategoryClassificationSchema,
  parent: z.object({ id: UuidSchema, name: z.string() }).nullable(),
  subcategories_count: z.number().int().min(0),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Category = z.infer<typeof CategorySchema>;

export const CategoryCollectionSchema = z.object({ categories: z.array(CategorySchema), pagination: PaginationSchema });

export const CategoryListQuerySchema = PageQuerySchema.extend({
  roots_only: BooleanParamSchema.optional(),
  parent_id: UuidSchema.optional(),
});

const CategoryName = z.string().trim().min(1, { message: "Name can't be blank" }).max(100, { message: "Name is too long (maximum is 100 characters)" });
const IconName = z
  .string()
  .trim()
  .regex(/^[a-z0-9-]{1,50}$/, { message: "Icon must be a Lucide icon name like coffee or shopping-cart" });

export const CreateCategoryBodySchema = z.object({
  category: z.object({
    name: CategoryName,
    color: HexColorSchema.optional(),
    icon: IconName.optional(),
    parent_id: UuidSchema.nullable().optional(),
    classification: CategoryClassificationSchema.optional(),
  }),
});

export const UpdateCategoryBodySchema = z.object({
  category: z.object({
    name: CategoryName.optional(),
    color: HexColorSchema.optional(),
    icon: IconName.optional(),
    parent_id: UuidSchema.nullable().optional(),
    classification: CategoryClassificationSchema.optional(),
  }),
});
