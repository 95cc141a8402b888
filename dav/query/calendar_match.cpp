#include "dav/query/calendar_match.hpp"

#include <algorithm>
#include <limits>

#include "dav/query/ical_object.hpp"
#include "dav/query/instances.hpp"
#include "dav/query/text_match.hpp"
#include "dav/query/time_rules.hpp"

namespace syncml::dav::query {
namespace {

using ical::bounds;

// The components a time-range or prop-filter placed straight in the VCALENDAR comp-filter stands for.
bool is_main_component(icalcomponent* c) {
    switch (icalcomponent_isa(c)) {
        case ICAL_VEVENT_COMPONENT:
        case ICAL_VTODO_COMPONENT:
        case ICAL_VJOURNAL_COMPONENT:
        case ICAL_VFREEBUSY_COMPONENT:
            return true;
        default:
            return false;
    }
}

bool is_calendar_property(std::string_view name) {
    return name == "VERSION" || name == "PRODID" || name == "CALSCALE" || name == "METHOD" || name.starts_with("X-");
}

class evaluator {
  public:
    evaluator(icalcomponent* calendar, const ical::clock& k) : calendar_(calendar), clock_(k) {}

    bool matches(const comp_filter& root) { return component_matches(root, calendar_, nullptr); }

  private:
    // Whether any subcomponent of `parent` named as `f` says matches it (none, for is-not-defined).
    bool comp_matches(const comp_filter& f, icalcomponent* parent) {
        const auto children = ical::components_named(parent, f.name);
        if (f.is_not_defined) return children.empty();
        return std::any_of(children.begin(), children.end(),
                           [&](icalcomponent* c) { return component_matches(f, c, parent); });
    }

    bool component_matches(const comp_filter& f, icalcomponent* c, icalcomponent* parent) {
        if (f.range && !overlaps(c, parent, ical::bounds_of(*f.range))) return false;
        for (const auto& p : f.props) {
            if (!prop_matches(p, c)) return false;
        }
        for (const auto& sub : f.comps) {
            if (!comp_matches(sub, c)) return false;
        }
        return true;
    }

    bool overlaps(icalcomponent* c, icalcomponent* parent, const bounds& b) {
        const ical::time_rules rules{calendar_, clock_};
        switch (icalcomponent_isa(c)) {
            case ICAL_VEVENT_COMPONENT:
                return rules.event_overlaps(c, b);
            case ICAL_VTODO_COMPONENT:
                return rules.todo_overlaps(c, b);
            case ICAL_VJOURNAL_COMPONENT:
                return rules.journal_overlaps(c, b);
            case ICAL_VFREEBUSY_COMPONENT:
                return rules.freebusy_overlaps(c, b);
            case ICAL_VALARM_COMPONENT:
                return parent && rules.alarm_overlaps(c, parent, b);
            case ICAL_VCALENDAR_COMPONENT:
                for (icalcomponent* sub : ical::children(c)) {
                    if (is_main_component(sub) && overlaps(sub, c, b)) return true;
                }
                return false;
            default:
                return false;
        }
    }

    bool prop_matches(const prop_filter& f, icalcomponent* c) {
        const auto props = ical::properties_named(c, f.name);
        if (props.empty() && icalcomponent_isa(c) == ICAL_VCALENDAR_COMPONENT && !is_calendar_property(f.name)) {
            std::vector<icalcomponent*> main;
            for (icalcomponent* sub : ical::children(c)) {
                if (is_main_component(sub)) main.push_back(sub);
            }
            return std::any_of(main.begin(), main.end(), [&](icalcomponent* sub) { return prop_matches(f, sub); });
        }
        if (f.is_not_defined) return props.empty();
        return std::any_of(props.begin(), props.end(), [&](icalproperty* p) { return property_matches(f, p); });
    }

    bool property_matches(const prop_filter& f, icalproperty* p) {
        if (f.range && !value_in_range(p, ical::bounds_of(*f.range))) return false;
        if (!f.matches.empty()) {
            const auto value = ical::value_text(p);
            for (const auto& m : f.matches) {
                if (!text_matches(value, m)) return false;
            }
        }
        return std::all_of(f.params.begin(), f.params.end(),
                           [&](const param_filter& pf) { return param_matches(pf, p); });
    }

    // A DATE-TIME value lies in the range; a DATE value's day overlaps it.
    bool value_in_range(icalproperty* p, const bounds& b) {
        const auto at = clock_.utc_of(p);
        if (!at) return false;
        const icalvalue* v = icalproperty_get_value(p);
        const bool date = v && icalvalue_isa(v) == ICAL_DATE_VALUE;
        return date ? b.start < *at + ical::k_day && b.end > *at : b.start <= *at && b.end > *at;
    }

    static bool param_matches(const param_filter& f, icalproperty* p) {
        const auto values = ical::parameter_values(p, f.name);
        if (f.is_not_defined) return values.empty();
        if (!f.match) return !values.empty();
        return std::any_of(values.begin(), values.end(),
                           [&](const std::string& v) { return text_matches(v, *f.match); });
    }

    icalcomponent* calendar_;
    const ical::clock& clock_;
};

}  // namespace

bool calendar_matches(const calendar_filter& filter, std::string_view text, const floating_zone& floating) {
    if (!filter.root) return true;
    auto calendar = ical::parse(text);
    if (!calendar) return true;
    const ical::clock k(calendar.get(), floating.zone());
    return evaluator(calendar.get(), k).matches(*filter.root);
}

}  // namespace syncml::dav::query
