/** A category a new family starts with; `subcategories` inherit its colour and classification. */
interface DefaultCategory {
  name: string;
  color: string;
  icon: string;
  classification: "income" | "expense";
  subcategories?: { name: string; icon: string }[];
}

/** A household's usual spending and income, so budgets and reports work from the first import. */
export const DEFAULT_CATEGORIES: DefaultCategory[] = [
  {
    name: "Income",
    color: "#4da568",
    icon: "circle-dollar-sign",
    classification: "income",
    subcategories: [
      { name: "Salary", icon: "briefcase" },
      { name: "Interest & Dividends", icon: "percent" },
    ],
  },
  {
    name: "Housing",
    color: "#6471eb",
    icon: "house",
    classification: "expense",
    subcategories: [
      { name: "Rent & Mortgage", icon: "key" },
      { name: "Home Maintenance", icon: "hammer" },
    ],
  },
  { name: "Utilities", color: "#61c9ea", icon: "lightbulb", classification: "expense" },
  {
    name: "Food & Drink",
    color: "#eb5429",
    icon: "utensils",
    classification: "expense",
    subcategories: [
      { name: "Groceries", icon: "shopping-basket" },
      { name: "Restaurants", icon: "chef-hat" },
    ],
  },
  { name: "Transportation", color: "#df4e92", icon: "bus", classification: "expense" },
  { name: "Healthcare", color: "#db5a54", icon: "pill", classification: "expense" },
  { name: "Shopping", color: "#e99537", icon: "shopping-cart", classification: "expense" },
  { name: "Entertainment", color: "#a855f7", icon: "drama", classification: "expense" },
  { name: "Travel", color: "#805dee", icon: "plane", classification: "expense" },
  { name: "Education", color: "#c44fe9", icon: "graduation-cap", classification: "expense" },
  { name: "Insurance", color: "#0ea5e9", icon: "shield", classification: "expense" },
  { name: "Gifts & Donations", color: "#f43f5e", icon: "hand-helping", classification: "expense" },
  { name: "Loan Payments", color: "#6ad28a", icon: "credit-card", classification: "expense" },
  { name: "Fees", color: "#737373", icon: "receipt", classification: "expense" },
];

/** Sure's default colour for a category created without one. */
export const DEFAULT_CATEGORY_COLOR = "#6172F3";

const ICON_HINTS: [RegExp, string][] = [
  [/coffee|cafe/i, "coffee"],
  [/grocer|supermarket/i, "shopping-basket"],
  [/restaurant|dining|food|meal/i, "utensils"],
  [/rent|mortgage|hous|home/i, "house"],
  [/car|fuel|gas|petrol|transport|taxi|bus|train/i, "car"],
  [/travel|flight|hotel|holiday|vacation/i, "plane"],
  [/health|doctor|pharma|medic/i, "pill"],
  [/salary|payroll|wage|income/i, "circle-dollar-sign"],
  [/gift|donat|charity/i, "gift"],
  [/pet|vet/i, "paw-print"],
  [/kid|child|school|educat/i, "graduation-cap"],
  [/shop|cloth/i, "shopping-cart"],
  [/util|electric|water|internet|phone/i, "lightbulb"],
  [/subscri|stream|music|movie|entertain/i, "tv"],
  [/insur/i, "shield"],
  [/fee|bank|charge/i, "receipt"],
];

/** Sure suggests a Lucide icon from the name when none is given. */
export function suggestIcon(name: string): string {
  return ICON_HINTS.find(([pattern]) => pattern.test(name))?.[1] ?? "shapes";
}
