#pragma once
// Internal to the SIF codec (sif_codec.cpp): one reader and one writer per document, over sif_document's fields,
// and the pieces they share.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "matching/model/item.hpp"
#include "matching/model/result.hpp"
#include "matching/sif/sif_document.hpp"

namespace syncml::matching {

contact read_sif_contact(const sif_fields& fields);
std::string write_sif_contact(const contact& value);

result<calendar> read_sif_event(const sif_fields& fields);
std::string write_sif_event(const calendar& cal, const calendar_component& event);

calendar read_sif_task(const sif_fields& fields);
std::string write_sif_task(const calendar& cal, const calendar_component& task);

memo read_sif_note(const sif_fields& fields);
std::string write_sif_note(const memo& value);

// A field vCard and iCalendar have no property for, and the X- property that carries it.
struct sif_extra {
    std::string_view field;
    std::string_view property;
};
void read_sif_extras(const sif_fields& fields, std::span<const sif_extra> table, std::vector<property>& out);
void write_sif_extras(sif_writer& out, std::span<const sif_extra> table, const std::vector<property>& extra);

// Outlook separates categories with commas (some clients with semicolons).
std::vector<std::string> read_sif_categories(const sif_fields& fields);
std::string sif_categories(const std::vector<std::string>& categories);

// Subject, Body, Categories, Sensitivity and Importance, which appointments and tasks share.
void read_sif_component(const sif_fields& fields, calendar_component& out);
void write_sif_component(sif_writer& out, const calendar_component& c);
calendar calendar_of(calendar_component component);

// Sensitivity (0 normal, 1 personal, 2 private, 3 confidential) as CLASS and back; normal is the default, no CLASS.
std::string class_of_sensitivity(std::optional<int> sensitivity);
int sensitivity_of_class(std::string_view class_);
// Importance (0 low, 1 normal, 2 high) as PRIORITY (9, undefined, 1) and back.
int priority_of_importance(std::optional<int> importance);
int importance_of_priority(int priority);

}  // namespace syncml::matching
