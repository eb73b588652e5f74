import { defineResourceRoutes } from "../define-resource-routes";
import {
  CategoryCollectionSchema,
  CategoryListQuerySchema,
  CategorySchema,
  CreateCategoryBodySchema,
  UpdateCategoryBodySchema,
} from "../../resources/categories";
import { IdParams, READ, WRITE } from "../../route-access";

// Sure's categories controller: a missing category is `not_found`, its validation failures are
// `unprocessable_entity`, and a body without `category` is 400 (categories_controller_test.rb).
const NOT_FOUND = { notFound: "Category not found" } as const;
const WRITE_ERRORS = { ...NOT_FOUND, invalid: "unprocessable_entity", requireBody: true } as const;

export const categoriesRoutes = defineResourceRoutes("finance", "categories", {
  list: {
    method: "GET",
    path: "/api/v1/categories",
    summary: "List categories (a new family starts with a default set)",
    tag: "Categories",
    query: CategoryListQuerySchema,
    response: CategoryCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/categories/:id",
    summary: "Retrieve a category",
    tag: "Categories",
    params: IdParams,
    response: CategorySchema,
    status: 200,
    access: READ,
    sureErrors: NOT_FOUND,
  },
  create: {
    method: "POST",
    path: "/api/v1/categories",
    summary: "Create a category or, with parent_id, a subcategory (two levels at most)",
    tag: "Categories",
    body: CreateCategoryBodySchema,
    response: CategorySchema,
    status: 201,
    access: WRITE,
    sureErrors: WRITE_ERRORS,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/categories/:id",
    summary: "Update a category",
    tag: "Categories",
    params: IdParams,
    body: UpdateCategoryBodySchema,
    response: CategorySchema,
    status: 200,
    access: WRITE,
    sureErrors: WRITE_ERRORS,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/categories/:id",
    summary: "Delete a category (its subcategories become top-level)",
    tag: "Categories",
    params: IdParams,
    response: null,
    status: 204,
    access: WRITE,
    sureErrors: NOT_FOUND,
  },
});
